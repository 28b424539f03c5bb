/** Where the notes live in the plugin's storage scope: one key per note. */
export const NOTES_PREFIX = "notes-search/notes/";

/** A note id: 1–64 letters, digits, `_`, `.` or `-`, starting with a letter or digit. */
export const NOTE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The rule {@link NOTE_ID_PATTERN} enforces, in words. */
export const NOTE_ID_RULE = "1–64 letters, digits, _ . or -, starting with a letter or digit";

/** The storage key of note `id`. */
export function noteKey(id: string): string {
  return `${NOTES_PREFIX}${id}`;
}
