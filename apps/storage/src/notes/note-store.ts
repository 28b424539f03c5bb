import type { StorageClient, StorageScope } from "@executa/core";
import type { IdSequence } from "./id-sequence.js";
import { idOfKey, NOTES_PREFIX, noteKey, tagKey, tagPrefix } from "./keys.js";
import { isNote, type Note } from "./note.js";

/** One page of notes, oldest first. */
export interface NotesPage {
  notes: Note[];
  /** Pass back as `cursor` for the next page; null on the last one. */
  next_cursor: string | null;
}

/** What {@link NoteStore.append} did. */
export interface Appended {
  note: Note;
  /** Read-modify-write rounds the id took (1 when no other writer interfered). */
  attempts: number;
}

/**
 * The notebook's operations on the host's key-value store, for one invoke (the storage
 * client carries that invoke's id, deadline and signal). Layout: see `keys.ts`.
 */
export class NoteStore {
  constructor(
    private readonly storage: StorageClient,
    private readonly scope: StorageScope,
    private readonly ids: IdSequence,
  ) {}

  /**
   * Stores a new note under a fresh id, then its tag markers. If a marker cannot be
   * written the note is removed again, so a failed append leaves nothing half-done.
   */
  async append(text: string, tags: readonly string[]): Promise<Appended> {
    const { id, attempts } = await this.ids.allocate(this.storage);
    const note: Note = { id, text, tags: [...tags], created_at: new Date().toISOString() };
    const scope = { scope: this.scope };
    await this.storage.set(noteKey(id), note, scope);
    try {
      await Promise.all(tags.map((tag) => this.storage.set(tagKey(tag, id), { id }, scope)));
    } catch (error) {
      await this.removeKeys(note).catch(() => {});
      throw error;
    }
    return { note, attempts };
  }

  /** A page of notes (or of the notes with `tag`), in the order they were written. */
  async page(options: { tag?: string; cursor?: string; limit: number }): Promise<NotesPage> {
    const listed = await this.storage.list({
      scope: this.scope,
      prefix: options.tag === undefined ? NOTES_PREFIX : tagPrefix(options.tag),
      kind: "kv",
      cursor: options.cursor,
      limit: options.limit,
    });
    const ids = listed.items.map((item) => idOfKey(item.key ?? "")).filter((id) => id !== undefined);
    const entries = await Promise.all(
      ids.map((id) => this.storage.get<unknown>(noteKey(id), { scope: this.scope })),
    );
    // A note deleted while this page was read (or a stray value) is skipped.
    const notes = entries.map((entry) => entry.value).filter(isNote);
    return { notes, next_cursor: listed.next_cursor };
  }

  /** Deletes a note and its tag markers; resolves with the note, or undefined if there was none. */
  async remove(id: number): Promise<Note | undefined> {
    const entry = await this.storage.get<unknown>(noteKey(id), { scope: this.scope });
    if (!entry.exists) return undefined;
    const note: Note = isNote(entry.value) ? entry.value : { id, text: "", tags: [], created_at: "" };
    await this.removeKeys(note);
    return note;
  }

  /** The note first (so it is gone from every listing at once), then its markers. */
  private async removeKeys(note: Note): Promise<void> {
    const scope = { scope: this.scope };
    await this.storage.delete(noteKey(note.id), scope);
    await Promise.all(note.tags.map((tag) => this.storage.delete(tagKey(tag, note.id), scope)));
  }
}
