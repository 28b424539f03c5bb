import type { EntryKind } from "./entry-kind.js";

/** A value, or a promise of it: the SQLite store answers at once, PostgreSQL later. */
export type MaybePromise<T> = T | Promise<T>;

/** One stored entry. Times are Unix epoch ms. */
export interface Entry {
  namespace: string;
  kind: EntryKind;
  key: string;
  /** The serialized JSON value (kv only). */
  valueJson: string | null;
  /** Name of the blob file (file only). */
  blob: string | null;
  contentType: string | null;
  metadata: Record<string, unknown> | null;
  etag: string;
  /** 1 for a new entry, +1 on every write. */
  generation: number;
  sizeBytes: number;
  createdAt: number;
  updatedAt: number;
  expiresAt: number | null;
}

/** The fields a write sets. */
export interface EntryWrite {
  valueJson?: string | null;
  blob?: string | null;
  contentType?: string | null;
  metadata?: Record<string, unknown> | null;
  sizeBytes: number;
  expiresAt?: number | null;
  /** The etag to store (e.g. a file's content hash); a fresh random one by default. */
  etag?: string;
}

/** A write or delete guarded by `if_match` that found another etag (or nothing). */
export interface PreconditionFailure {
  ok: false;
  current: Entry | undefined;
}

/** What {@link EntryStore.put} did: the entry written, the one it replaced, those found expired. */
export type PutOutcome =
  | { ok: true; entry: Entry; replaced: Entry | undefined; expired: Entry[] }
  | PreconditionFailure;

/** What {@link EntryStore.delete} did. */
export type DeleteOutcome = { ok: true; deleted: Entry | undefined } | PreconditionFailure;

/** Which entries of a namespace {@link EntryStore.list} returns, one page at a time. */
export interface ListQuery {
  kind?: EntryKind;
  prefix?: string;
  cursor?: string;
  limit: number;
}

/** One page of a listing; `nextCursor` is set when more may follow. */
export interface EntryPage {
  /** The entries of this page, in key order. */
  items: Entry[];
  /** The cursor of the next page, or null after the last. */
  nextCursor: string | null;
}

/**
 * The storage database the storage and files providers run on: KV entries and file
 * metadata of every scope, keyed by (namespace, key, kind), expired entries invisible.
 * Each write is atomic, `if_match` included, also against other processes on the same
 * database. {@link LocalStore} (SQLite) answers synchronously; a store over the network
 * (PostgreSQL) answers with promises.
 */
export interface EntryStore {
  /** The live entry, or undefined when missing or expired. */
  get(namespace: string, kind: EntryKind, key: string): MaybePromise<Entry | undefined>;
  /**
   * Creates or replaces an entry. With `ifMatch`, only when the live entry has that etag.
   * Entries that expired meanwhile are returned in `expired`, so their blobs can be removed.
   */
  put(
    namespace: string,
    kind: EntryKind,
    key: string,
    write: EntryWrite,
    ifMatch?: string,
  ): MaybePromise<PutOutcome>;
  /** Deletes an entry; with `ifMatch`, only when the live entry has that etag. */
  delete(namespace: string, kind: EntryKind, key: string, ifMatch?: string): MaybePromise<DeleteOutcome>;
  /**
   * One page of live entries in key order (by UTF-8 bytes, then kind), optionally of one
   * kind and under a prefix.
   *
   * @throws TypeError (or rejects with one) for a cursor this store did not make.
   */
  list(namespace: string, query: ListQuery): MaybePromise<EntryPage>;
  /** Closes the store; a second call does nothing. */
  close(): MaybePromise<void>;
}

/**
 * `next(value)`, at once when `value` is not a promise: the SQLite store's answers stay
 * synchronous through the providers, with no extra turn of the event loop.
 */
export function whenReady<T, R>(value: MaybePromise<T>, next: (value: T) => R): MaybePromise<Awaited<R>> {
  return value instanceof Promise
    ? (value.then(next) as Promise<Awaited<R>>)
    : (next(value) as MaybePromise<Awaited<R>>);
}
