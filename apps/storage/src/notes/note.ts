/** One note as stored under `notebook/notes/<id>`. */
export interface Note {
  id: number;
  text: string;
  tags: string[];
  /** ISO 8601, UTC. */
  created_at: string;
}

/** Longest note text, in characters. */
export const MAX_NOTE_CHARS = 20_000;
/** Most tags on one note. */
export const MAX_TAGS = 10;
/** A tag: letters, digits, `_`, `.`, `-`; 1–40 characters. Stored lowercased. */
export const TAG_PATTERN = /^[\p{L}\p{N}_.-]{1,40}$/u;

/** Tags as stored: trimmed, lowercased, without repeats, in the order given. */
export function normalizeTags(tags: readonly string[] | undefined): string[] {
  return [...new Set((tags ?? []).map((tag) => tag.trim().toLowerCase()))];
}

/** Whether a stored value is a note (values written by something else are skipped). */
export function isNote(value: unknown): value is Note {
  if (typeof value !== "object" || value === null) return false;
  const note = value as Record<string, unknown>;
  return (
    Number.isInteger(note.id) &&
    typeof note.text === "string" &&
    Array.isArray(note.tags) &&
    note.tags.every((tag) => typeof tag === "string") &&
    typeof note.created_at === "string"
  );
}
