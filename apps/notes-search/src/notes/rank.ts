import { cosineSimilarity } from "./cosine.js";
import type { IndexedNote } from "./stored-note.js";

/** One search hit. */
export interface NoteMatch {
  id: string;
  /** Cosine similarity to the query, rounded to 4 decimals. */
  score: number;
  text: string;
}

/** What {@link rankNotes} found. */
export interface Ranking {
  matches: NoteMatch[];
  /** Notes embedded by another model than the query, which cannot be compared with it. */
  skipped: number;
}

/** The query's embedding, and the model that made it when the host named one. */
export interface QueryVector {
  vector: ArrayLike<number>;
  model: string | null;
}

/**
 * The `limit` notes most similar to `query`, best first; equal scores in id order, so a
 * ranking is reproducible. Vectors of two models live in different spaces, even when
 * their sizes agree: notes of another size or another named model are counted in
 * `skipped` instead of ranked.
 */
export function rankNotes(query: QueryVector, notes: Iterable<IndexedNote>, limit: number): Ranking {
  const scored: { note: IndexedNote; score: number }[] = [];
  let skipped = 0;
  for (const note of notes) {
    if (!comparable(query, note)) {
      skipped++;
      continue;
    }
    scored.push({ note, score: cosineSimilarity(query.vector, note.vector) });
  }
  scored.sort((a, b) => b.score - a.score || (a.note.id < b.note.id ? -1 : a.note.id > b.note.id ? 1 : 0));
  const matches = scored.slice(0, limit).map(({ note, score }) => ({
    id: note.id,
    score: Math.round(score * 10_000) / 10_000,
    text: note.text,
  }));
  return { matches, skipped };
}

function comparable(query: QueryVector, note: IndexedNote): boolean {
  if (note.vector.length !== query.vector.length) return false;
  return query.model === null || note.model === null || note.model === query.model;
}
