import { decodeVector } from "./vector-codec.js";

/** A note as it is kept in storage, under `notes-search/notes/<id>`. */
export interface StoredNote {
  id: string;
  text: string;
  /** The embedding model the host reported, when it named one. */
  model: string | null;
  dimensions: number;
  /** Base64 of the float32 embedding (see `vector-codec.ts`). */
  vector: string;
  added_at: string;
}

/** A stored note read back, its vector decoded. */
export interface IndexedNote {
  id: string;
  text: string;
  model: string | null;
  vector: Float32Array;
  added_at: string;
}

/**
 * `value` (a storage entry) as an {@link IndexedNote}, or undefined when it is not a note
 * this plugin wrote: such entries are left out of searches rather than failing them.
 */
export function readStoredNote(value: unknown): IndexedNote | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const note = value as Partial<StoredNote>;
  if (typeof note.id !== "string" || typeof note.text !== "string") return undefined;
  if (typeof note.vector !== "string" || typeof note.dimensions !== "number") return undefined;
  const vector = decodeVector(note.vector, note.dimensions);
  if (!vector) return undefined;
  return {
    id: note.id,
    text: note.text,
    model: typeof note.model === "string" ? note.model : null,
    vector,
    added_at: typeof note.added_at === "string" ? note.added_at : "",
  };
}
