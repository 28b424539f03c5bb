import { type StorageClient, type StorageScope, ToolError } from "@executa/core";
import { idOfKey, MAX_NOTE_ID, NOTES_PREFIX, SEQUENCE_KEY } from "./keys.js";

/** The value under `notebook/seq`. */
interface SequenceValue {
  next: number;
}

/**
 * Retry policy of an id allocation. Every append of every writer (concurrent invokes of
 * this process, other processes or devices on the same scope) races for the one sequence
 * key, so losing a round is normal: up to 40 rounds, waiting a random 0–10 ms after the
 * first conflict, doubling up to 0–250 ms. The invoke's deadline bounds it all.
 */
export const ALLOCATION_RETRY = { maxAttempts: 40, backoff: { baseMs: 10, maxMs: 250 } } as const;

/** An allocated note id and how many read-modify-write rounds it took. */
export interface Allocation {
  id: number;
  attempts: number;
}

/** `notebook/seq` was deleted after this process saw it. */
class SequenceVanished extends Error {}

/**
 * Hands out note ids 1, 2, 3, … from the counter under `notebook/seq`, with optimistic
 * concurrency: read the counter and its etag, write `next + 1` with `if_match` set to
 * that etag, and start over when another writer got there first (-32023).
 *
 * The protocol has no "create only if absent", so the first write of the counter cannot
 * be guarded by `if_match`. Within this process the creation is done once, by the first
 * append, while concurrent appends wait for it; it starts after the highest note id
 * already stored, so a lost or deleted counter never hands out an id twice. Two
 * processes creating the counter for the same scope at the same moment remain a race
 * the protocol cannot close.
 *
 * One instance per plugin process and scope; the storage client is the invoke's.
 */
export class IdSequence {
  private ready = false;
  private creating: Promise<void> | undefined;

  constructor(private readonly scope: StorageScope) {}

  /** The next free id. Rejects with a `StorageError` when storage fails or conflicts persist. */
  async allocate(storage: StorageClient): Promise<Allocation> {
    for (let round = 1; ; round++) {
      await this.ensureCreated(storage);
      try {
        const result = await storage.update<SequenceValue>(
          SEQUENCE_KEY,
          (current) => {
            if (current === undefined) throw new SequenceVanished();
            const next = readNext(current);
            if (next > MAX_NOTE_ID) throw new ToolError(`the notebook is full (${MAX_NOTE_ID} notes)`);
            return { next: next + 1 };
          },
          { scope: this.scope, ...ALLOCATION_RETRY },
        );
        return { id: result.value.next - 1, attempts: result.attempts };
      } catch (error) {
        if (!(error instanceof SequenceVanished) || round >= 2) {
          if (error instanceof SequenceVanished) {
            throw new ToolError(`${SEQUENCE_KEY} keeps disappearing; is another program deleting it?`);
          }
          throw error;
        }
        this.ready = false;
      }
    }
  }

  /** Makes sure the counter exists, creating it once per process (concurrent callers wait). */
  private async ensureCreated(storage: StorageClient): Promise<void> {
    while (!this.ready) {
      if (this.creating) {
        // Someone else's invoke is creating it; if that fails, try with ours.
        await this.creating.catch(() => {});
        continue;
      }
      const attempt = this.create(storage)
        .then(() => {
          this.ready = true;
        })
        .finally(() => {
          this.creating = undefined;
        });
      this.creating = attempt;
      await attempt;
    }
  }

  private async create(storage: StorageClient): Promise<void> {
    const entry = await storage.get<unknown>(SEQUENCE_KEY, { scope: this.scope });
    if (entry.exists) {
      readNext(entry.value);
      return;
    }
    const next = (await this.highestStoredId(storage)) + 1;
    await storage.set(SEQUENCE_KEY, { next } satisfies SequenceValue, { scope: this.scope });
  }

  /** The largest id among stored notes (0 when there are none): the last key in key order. */
  private async highestStoredId(storage: StorageClient): Promise<number> {
    let highest = 0;
    let cursor: string | undefined;
    do {
      const page = await storage.list({
        scope: this.scope,
        prefix: NOTES_PREFIX,
        kind: "kv",
        cursor,
        limit: 1000,
      });
      for (const item of page.items) highest = Math.max(highest, idOfKey(item.key ?? "") ?? 0);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return highest;
  }
}

function readNext(value: unknown): number {
  const next = (value as Partial<SequenceValue> | null)?.next;
  if (typeof next !== "number" || !Number.isSafeInteger(next) || next < 1) {
    throw new ToolError(
      `${SEQUENCE_KEY} holds ${JSON.stringify(value)}, not a note counter ({ "next": <positive integer> }); ` +
        "delete that key and the notebook recreates it",
    );
  }
  return next;
}
