/**
 * Where the notebook keeps its data in the host's key-value store and object storage.
 * Everything lives under `notebook/`, so the notebook shares a scope with other data
 * without colliding with it.
 *
 * | key | value |
 * |---|---|
 * | `notebook/seq` | `{ next }`: the next note id (written with `if_match`) |
 * | `notebook/notes/<id>` | a {@link Note} |
 * | `notebook/tags/<tag>/<id>` | `{ id }`: the tag index, one marker per tag of a note |
 *
 * Ids are zero-padded in keys so that the host's key order (`storage/list` pages in key
 * order) is the order in which notes were written.
 */

export const SEQUENCE_KEY = "notebook/seq";
export const NOTES_PREFIX = "notebook/notes/";
export const TAGS_PREFIX = "notebook/tags/";
/** Object paths of attachments (the `files/*` namespace). */
export const ATTACHMENTS_PREFIX = "notebook/attachments/";

const ID_DIGITS = 10;
/** The largest id a key can hold. */
export const MAX_NOTE_ID = 10 ** ID_DIGITS - 1;

function padded(id: number): string {
  return String(id).padStart(ID_DIGITS, "0");
}

export function noteKey(id: number): string {
  return `${NOTES_PREFIX}${padded(id)}`;
}

/** Prefix of the markers of one tag. Tags never contain "/", so prefixes cannot overlap. */
export function tagPrefix(tag: string): string {
  return `${TAGS_PREFIX}${tag}/`;
}

export function tagKey(tag: string, id: number): string {
  return `${tagPrefix(tag)}${padded(id)}`;
}

/** The note id at the end of a note key or tag marker key, or undefined for any other key. */
export function idOfKey(key: string): number | undefined {
  const match = /\/(\d{10})$/.exec(key);
  return match ? Number(match[1]) : undefined;
}
