import { type EmbeddingsClient, type StorageClient, ToolError } from "@executa/core";
import { NOTES_PREFIX, noteKey } from "./note-id.js";
import { type Ranking, rankNotes } from "./rank.js";
import { type IndexedNote, readStoredNote, type StoredNote } from "./stored-note.js";
import { encodeVector } from "./vector-codec.js";

/** How many notes a search reads from storage at once. */
const READ_BATCH = 16;

/** The host services a {@link NoteIndex} works with (the invoke's `ctx.host`). */
export interface NoteIndexHost {
  storage: StorageClient;
  embeddings: EmbeddingsClient;
}

/** What {@link NoteIndex.add} answers. */
export interface AddedNote {
  id: string;
  dimensions: number;
  model: string | null;
  /** True when a note with this id was there before and has been replaced. */
  replaced: boolean;
}

/** What {@link NoteIndex.search} answers. */
export interface SearchOutcome extends Ranking {
  /** Notes read from storage; `skipped` of them could not be compared with the query. */
  searched: number;
}

/**
 * Notes and their embeddings in the host's key-value store, one key per note in the
 * plugin's own (`tool`) scope. A search embeds the query and compares it with every
 * stored vector: exact, and fine for the few thousand notes a person keeps; a larger
 * corpus would want an index kept by the host.
 */
export class NoteIndex {
  constructor(private readonly host: NoteIndexHost) {}

  /** Embeds `text` and stores it under `id`, replacing a note with that id. */
  async add(id: string, text: string): Promise<AddedNote> {
    const { vector, model } = await this.embed(text);
    const previous = await this.host.storage.get(noteKey(id));
    const note: StoredNote = {
      id,
      text,
      model,
      dimensions: vector.length,
      vector: encodeVector(vector),
      added_at: new Date().toISOString(),
    };
    await this.host.storage.set(noteKey(id), note);
    return { id, dimensions: vector.length, model, replaced: previous.exists };
  }

  /** The `limit` notes closest in meaning to `query`, best first. */
  async search(query: string, limit: number): Promise<SearchOutcome> {
    const embedded = await this.embed(query);
    const notes = await this.read(await this.noteKeys());
    const ranking = rankNotes(embedded, notes.found, limit);
    return {
      ...ranking,
      searched: notes.found.length + notes.unreadable,
      skipped: ranking.skipped + notes.unreadable,
    };
  }

  /** Removes note `id`; false when there is none. */
  async remove(id: string): Promise<boolean> {
    const entry = await this.host.storage.get(noteKey(id));
    if (!entry.exists) return false;
    await this.host.storage.delete(noteKey(id));
    return true;
  }

  /** The host's embedding of `text`, checked to be a usable vector. */
  private async embed(text: string): Promise<{ vector: number[]; model: string | null }> {
    const result = await this.host.embeddings.create(text);
    const item = result.data.find((entry) => entry.index === 0) ?? result.data[0];
    const vector = item?.embedding;
    if (!Array.isArray(vector) || vector.length === 0 || !vector.every(Number.isFinite)) {
      throw new ToolError("the host answered an embedding that is not a non-empty list of numbers");
    }
    return { vector, model: typeof result.model === "string" ? result.model : null };
  }

  private async noteKeys(): Promise<string[]> {
    const keys: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.host.storage.list({ prefix: NOTES_PREFIX, cursor });
      for (const item of page.items) if (typeof item.key === "string") keys.push(item.key);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return keys;
  }

  /** The notes under `keys`; entries that are not notes (or vanished meanwhile) are counted, not thrown. */
  private async read(keys: readonly string[]): Promise<{ found: IndexedNote[]; unreadable: number }> {
    const found: IndexedNote[] = [];
    let unreadable = 0;
    for (let start = 0; start < keys.length; start += READ_BATCH) {
      const batch = keys.slice(start, start + READ_BATCH);
      const entries = await Promise.all(batch.map((key) => this.host.storage.get(key)));
      for (const entry of entries) {
        const note = entry.exists ? readStoredNote(entry.value) : undefined;
        if (note) found.push(note);
        else if (entry.exists) unreadable++;
      }
    }
    return { found, unreadable };
  }
}
