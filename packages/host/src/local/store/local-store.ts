import { type Clock, systemClock } from "../clock.js";
import { decodeCursor, encodeCursor } from "./cursor.js";
import type { EntryKind } from "./entry-kind.js";
import { ENTRY_COLUMNS, type EntryRow, fromRow, toColumns } from "./entry-row.js";
import type {
  DeleteOutcome,
  Entry,
  EntryPage,
  EntryStore,
  EntryWrite,
  ListQuery,
  PutOutcome,
} from "./entry-store.js";
import { nextEntry } from "./next-entry.js";
import { builtinSqliteDriver } from "./sqlite/builtin-driver.js";
import { loadSqliteDriver } from "./sqlite/load-driver.js";
import type { SqliteDriver, SqliteDriverName, StoreDatabase, StoreSync } from "./sqlite/store-database.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS entries (
  namespace TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('kv', 'file')),
  key TEXT NOT NULL,
  value TEXT,
  blob TEXT,
  content_type TEXT,
  metadata TEXT,
  etag TEXT NOT NULL,
  generation INTEGER NOT NULL,
  size_bytes INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  expires_at INTEGER,
  PRIMARY KEY (namespace, key, kind)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS entries_expiry ON entries (expires_at) WHERE expires_at IS NOT NULL;
`;

const SQL = {
  get: "SELECT * FROM entries WHERE namespace = ?1 AND key = ?2 AND kind = ?3 AND (expires_at IS NULL OR expires_at > ?4)",
  put: `INSERT OR REPLACE INTO entries (${ENTRY_COLUMNS})
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)`,
  delete: "DELETE FROM entries WHERE namespace = ?1 AND key = ?2 AND kind = ?3",
  // ?1 namespace, ?2 kind or NULL, ?3 prefix, ?4 key after or NULL, ?5 kind after, ?6 now, ?7 limit
  list: `SELECT * FROM entries
          WHERE namespace = ?1
            AND (?2 IS NULL OR kind = ?2)
            AND substr(key, 1, length(?3)) = ?3
            AND (?4 IS NULL OR key > ?4 OR (key = ?4 AND kind > ?5))
            AND (expires_at IS NULL OR expires_at > ?6)
          ORDER BY key, kind
          LIMIT ?7`,
  expired: "SELECT * FROM entries WHERE expires_at IS NOT NULL AND expires_at <= ?1",
  purge: "DELETE FROM entries WHERE expires_at IS NOT NULL AND expires_at <= ?1",
} as const;

/** Options of {@link LocalStore}. */
export interface LocalStoreOptions {
  /** The time source of TTLs (tests move it). Default the system clock. */
  now?: Clock;
  /**
   * The SQLite to run on. Default: the runtime's own (`bun:sqlite`, `node:sqlite`); where
   * there is none, pass `await loadWasmSqliteDriver()`, or open the store with {@link LocalStore.open},
   * which loads it.
   */
  driver?: SqliteDriver;
  /**
   * When a commit reaches the disk on the runtime's SQLite: `"normal"` (default) survives
   * the process being killed, `"full"` also a power loss (see {@link StoreSync}).
   */
  sync?: StoreSync;
}

/**
 * The local storage database: one SQLite file holding every scope's KV entries and file
 * metadata, keyed by (namespace, key, kind). Expired entries are invisible at once and
 * purged on writes. All methods are synchronous and each runs as one transaction, so
 * `if_match` checks cannot race, also against another process on the same file.
 *
 * SQLite is the runtime's own where it has one (`bun:sqlite`, `node:sqlite`), in WAL mode;
 * else SQLite compiled to WebAssembly. Either way a commit survives the process being
 * killed once it returns, the file persists across processes, and a transaction cut short
 * by a crash is rolled back. Against a power loss, the WebAssembly store syncs every
 * commit to disk; the runtime's SQLite syncs at checkpoints (WAL with
 * `synchronous = NORMAL`), so a power loss may undo its last commits, unless it is opened
 * with `sync: "full"`.
 */
export class LocalStore implements EntryStore {
  private readonly db: StoreDatabase;
  private readonly now: Clock;

  /**
   * Opens the store on the best SQLite of the runtime, loading the WebAssembly one only
   * where the runtime has none.
   *
   * @param path - the database file (created with its folder), or ":memory:".
   */
  static async open(path: string, options: LocalStoreOptions = {}): Promise<LocalStore> {
    return new LocalStore(path, { ...options, driver: options.driver ?? (await loadSqliteDriver()) });
  }

  /**
   * @param path - the database file (created with its folder), or ":memory:".
   * @throws TypeError when no `driver` is given and the runtime has no SQLite of its own.
   */
  constructor(path: string, options: LocalStoreOptions = {}) {
    const driver = options.driver ?? builtinSqliteDriver();
    if (!driver) {
      throw new TypeError(
        "this runtime has no built-in SQLite: open the store with LocalStore.open(), which loads SQLite compiled to WebAssembly",
      );
    }
    this.db = driver.open(path, { schema: SCHEMA, sync: options.sync });
    this.now = options.now ?? systemClock;
  }

  /** Which SQLite the store runs on. */
  get driver(): SqliteDriverName {
    return this.db.driver;
  }

  /** The live entry, or undefined when missing or expired. */
  get(namespace: string, kind: EntryKind, key: string): Entry | undefined {
    const [row] = this.db.read(() => this.db.all(SQL.get, [namespace, key, kind, this.now()]));
    return row ? fromRow(row as unknown as EntryRow) : undefined;
  }

  /**
   * Creates or replaces an entry. With `ifMatch`, only when the live entry has that etag.
   * Entries that expired meanwhile are returned in `expired`, so their blobs can be removed.
   */
  put(namespace: string, kind: EntryKind, key: string, write: EntryWrite, ifMatch?: string): PutOutcome {
    return this.db.transaction(() => {
      const expired = this.purgeExpired();
      const current = this.get(namespace, kind, key);
      if (ifMatch !== undefined && current?.etag !== ifMatch) return { ok: false as const, current };
      const entry = nextEntry(namespace, kind, key, write, current, this.now());
      this.db.run(SQL.put, toColumns(entry));
      return { ok: true as const, entry, replaced: current, expired };
    });
  }

  /** Deletes an entry; with `ifMatch`, only when the live entry has that etag. */
  delete(namespace: string, kind: EntryKind, key: string, ifMatch?: string): DeleteOutcome {
    return this.db.transaction(() => {
      const current = this.get(namespace, kind, key);
      if (ifMatch !== undefined && current?.etag !== ifMatch) return { ok: false as const, current };
      this.db.run(SQL.delete, [namespace, key, kind]);
      return { ok: true as const, deleted: current };
    });
  }

  /**
   * One page of live entries in key order (then kind), optionally of one kind and under a
   * prefix. `nextCursor` is set when more may follow.
   *
   * @throws TypeError for a cursor this store did not make.
   */
  list(namespace: string, query: ListQuery): EntryPage {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const prefix = query.prefix ?? "";
    const rows = this.db.read(() =>
      this.db.all(SQL.list, [
        namespace,
        query.kind ?? null,
        prefix,
        after?.key ?? null,
        after?.kind ?? "",
        this.now(),
        query.limit + 1,
      ]),
    ) as unknown as EntryRow[];
    const items = rows.slice(0, query.limit).map(fromRow);
    const last = items[items.length - 1];
    const nextCursor =
      rows.length > query.limit && last ? encodeCursor({ key: last.key, kind: last.kind }) : null;
    return { items, nextCursor };
  }

  /** Removes expired entries and returns them (so file blobs can be deleted too). */
  purgeExpired(): Entry[] {
    const now = this.now();
    const rows = this.db.read(() => this.db.all(SQL.expired, [now])) as unknown as EntryRow[];
    if (rows.length > 0) this.db.transaction(() => this.db.run(SQL.purge, [now]));
    return rows.map(fromRow);
  }

  close(): void {
    this.db.close();
  }
}
