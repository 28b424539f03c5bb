import { randomBytes } from "node:crypto";
import { type Clock, systemClock } from "../clock.js";
import { decodeCursor, encodeCursor } from "./cursor.js";
import type { EntryKind } from "./entry-kind.js";
import { inTransaction, openSqlite, recoveringStaleLock, type SqliteDatabase } from "./sqlite-file.js";

export type { EntryKind } from "./entry-kind.js";

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

/** Which entries of a namespace {@link LocalStore.list} returns, one page at a time. */
export interface ListQuery {
  kind?: EntryKind;
  prefix?: string;
  cursor?: string;
  limit: number;
}

interface Row {
  namespace: string;
  kind: EntryKind;
  key: string;
  value: string | null;
  blob: string | null;
  content_type: string | null;
  metadata: string | null;
  etag: string;
  generation: number;
  size_bytes: number;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
}

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
  get: "SELECT * FROM entries WHERE namespace = ? AND key = ? AND kind = ? AND (expires_at IS NULL OR expires_at > ?)",
  put: `INSERT OR REPLACE INTO entries
          (namespace, kind, key, value, blob, content_type, metadata, etag, generation, size_bytes, created_at, updated_at, expires_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  delete: "DELETE FROM entries WHERE namespace = ? AND key = ? AND kind = ?",
  list: `SELECT * FROM entries
          WHERE namespace = @namespace
            AND (@kind IS NULL OR kind = @kind)
            AND substr(key, 1, length(@prefix)) = @prefix
            AND (@afterKey IS NULL OR key > @afterKey OR (key = @afterKey AND kind > @afterKind))
            AND (expires_at IS NULL OR expires_at > @now)
          ORDER BY key, kind
          LIMIT @limit`,
  expired: "SELECT * FROM entries WHERE expires_at IS NOT NULL AND expires_at <= ?",
  purge: "DELETE FROM entries WHERE expires_at IS NOT NULL AND expires_at <= ?",
} as const;

type Statement = ReturnType<SqliteDatabase["prepare"]>;

/**
 * The local storage database: one SQLite file holding every scope's KV entries and file
 * metadata, keyed by (namespace, key, kind). Expired entries are invisible at once and
 * purged on writes. All methods are synchronous and each runs as one transaction, so
 * `if_match` checks cannot race, also against another process on the same file.
 *
 * SQLite runs as WebAssembly (no native addon): the file is durable on commit and
 * persists across processes; a transaction cut short by a crash is rolled back.
 */
export class LocalStore {
  private readonly db: SqliteDatabase;
  private readonly path: string;
  private readonly now: Clock;
  /** Prepared once; WebAssembly statements are freed by {@link LocalStore.close}, not by GC. */
  private readonly statements = new Map<keyof typeof SQL, Statement>();

  /** @param path - the database file (created with its folder), or ":memory:". */
  constructor(path: string, options: { now?: Clock } = {}) {
    this.path = path;
    this.db = openSqlite(path);
    try {
      inTransaction(this.db, path, () => this.db.exec(SCHEMA));
    } catch (error) {
      this.db.close();
      throw error;
    }
    this.now = options.now ?? systemClock;
  }

  /** The live entry, or undefined when missing or expired. */
  get(namespace: string, kind: EntryKind, key: string): Entry | undefined {
    // all(), not get(): a statement stepped to its end leaves no read lock behind.
    const [row] = this.read(() => this.statement("get").all([namespace, key, kind, this.now()]));
    return row ? fromRow(row as unknown as Row) : undefined;
  }

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
  ): { ok: true; entry: Entry; replaced: Entry | undefined; expired: Entry[] } | PreconditionFailure {
    return inTransaction(this.db, this.path, () => {
      const expired = this.purgeExpired();
      const current = this.get(namespace, kind, key);
      if (ifMatch !== undefined && current?.etag !== ifMatch) return { ok: false as const, current };
      const now = this.now();
      const entry: Entry = {
        namespace,
        kind,
        key,
        valueJson: write.valueJson ?? null,
        blob: write.blob ?? null,
        contentType: write.contentType ?? null,
        metadata: write.metadata ?? null,
        etag: write.etag ?? newEtag(),
        generation: (current?.generation ?? 0) + 1,
        sizeBytes: write.sizeBytes,
        createdAt: current?.createdAt ?? now,
        updatedAt: now,
        expiresAt: write.expiresAt ?? null,
      };
      this.statement("put").run(toColumns(entry));
      return { ok: true as const, entry, replaced: current, expired };
    });
  }

  /** Deletes an entry; with `ifMatch`, only when the live entry has that etag. */
  delete(
    namespace: string,
    kind: EntryKind,
    key: string,
    ifMatch?: string,
  ): { ok: true; deleted: Entry | undefined } | PreconditionFailure {
    return inTransaction(this.db, this.path, () => {
      const current = this.get(namespace, kind, key);
      if (ifMatch !== undefined && current?.etag !== ifMatch) return { ok: false as const, current };
      this.statement("delete").run([namespace, key, kind]);
      return { ok: true as const, deleted: current };
    });
  }

  /**
   * One page of live entries in key order (then kind), optionally of one kind and under a
   * prefix. `nextCursor` is set when more may follow.
   *
   * @throws TypeError for a cursor this store did not make.
   */
  list(namespace: string, query: ListQuery): { items: Entry[]; nextCursor: string | null } {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const prefix = query.prefix ?? "";
    const rows = this.read(() =>
      this.statement("list").all({
        "@namespace": namespace,
        "@kind": query.kind ?? null,
        "@prefix": prefix,
        "@afterKey": after?.key ?? null,
        "@afterKind": after?.kind ?? "",
        "@now": this.now(),
        "@limit": query.limit + 1,
      }),
    ) as unknown as Row[];
    const items = rows.slice(0, query.limit).map(fromRow);
    const last = items[items.length - 1];
    const nextCursor =
      rows.length > query.limit && last ? encodeCursor({ key: last.key, kind: last.kind }) : null;
    return { items, nextCursor };
  }

  /** Removes expired entries and returns them (so file blobs can be deleted too). */
  purgeExpired(): Entry[] {
    const now = this.now();
    const rows = this.read(() => this.statement("expired").all([now])) as unknown as Row[];
    if (rows.length > 0) {
      inTransaction(this.db, this.path, () => this.statement("purge").run([now]));
    }
    return rows.map(fromRow);
  }

  close(): void {
    if (!this.db.isOpen) return;
    this.finalizeStatements();
    this.db.close();
  }

  private statement(name: keyof typeof SQL): Statement {
    let statement = this.statements.get(name);
    if (!statement) {
      statement = this.db.prepare(SQL[name]);
      this.statements.set(name, statement);
    }
    return statement;
  }

  /** A read outside a transaction of this store's (inside one, the lock is already held). */
  private read<T>(work: () => T): T {
    return this.db.inTransaction
      ? work()
      : recoveringStaleLock(this.path, work, () => this.finalizeStatements());
  }

  /**
   * Frees the prepared statements; they are prepared anew on next use. Also what a failed
   * read needs: a statement that failed on a lock cannot be reset and bound again, and
   * its finalize reports that same failure again, which is why it is not rethrown.
   */
  private finalizeStatements(): void {
    for (const statement of this.statements.values()) {
      if (statement.isFinalized) continue;
      try {
        statement.finalize();
      } catch {}
    }
    this.statements.clear();
  }
}

function newEtag(): string {
  return randomBytes(12).toString("hex");
}

function fromRow(row: Row): Entry {
  return {
    namespace: row.namespace,
    kind: row.kind,
    key: row.key,
    valueJson: row.value,
    blob: row.blob,
    contentType: row.content_type,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    etag: row.etag,
    generation: row.generation,
    sizeBytes: row.size_bytes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
  };
}

/** The columns of {@link SQL.put}, in order. */
function toColumns(entry: Entry): (string | number | null)[] {
  return [
    entry.namespace,
    entry.kind,
    entry.key,
    entry.valueJson,
    entry.blob,
    entry.contentType,
    entry.metadata === null ? null : JSON.stringify(entry.metadata),
    entry.etag,
    entry.generation,
    entry.sizeBytes,
    entry.createdAt,
    entry.updatedAt,
    entry.expiresAt,
  ];
}
