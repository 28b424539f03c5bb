import type { Pool, PoolClient } from "pg";
import { type Clock, systemClock } from "../../clock.js";
import { decodeCursor, encodeCursor } from "../cursor.js";
import type { EntryKind } from "../entry-kind.js";
import { ENTRY_COLUMNS, type EntryRow, fromRow, toColumns } from "../entry-row.js";
import type {
  DeleteOutcome,
  Entry,
  EntryPage,
  EntryStore,
  EntryWrite,
  ListQuery,
  PutOutcome,
} from "../entry-store.js";
import { nextEntry } from "../next-entry.js";

/** The one table, named for this toolkit since the database may be shared with others. */
const TABLE = "executa_entries";

/**
 * Keys are compared as bytes (`COLLATE "C"`), so listing order and cursors are those of
 * the SQLite store (UTF-8 bytes) whatever the database's locale.
 */
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS ${TABLE} (
    namespace TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('kv', 'file')),
    key TEXT COLLATE "C" NOT NULL,
    value TEXT,
    blob TEXT,
    content_type TEXT,
    metadata TEXT,
    etag TEXT NOT NULL,
    generation INTEGER NOT NULL,
    size_bytes BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    expires_at BIGINT,
    PRIMARY KEY (namespace, key, kind)
  )`,
  `CREATE INDEX IF NOT EXISTS ${TABLE}_expiry ON ${TABLE} (expires_at) WHERE expires_at IS NOT NULL`,
];

/**
 * A transaction-scoped advisory lock taken around the schema statements: `CREATE … IF NOT
 * EXISTS` run by several replicas at once can still fail on the catalog's unique index.
 */
const SCHEMA_LOCK = 0x45_58_45_43; // "EXEC"

const LIVE = "(expires_at IS NULL OR expires_at > $4)";

const SQL = {
  get: `SELECT * FROM ${TABLE} WHERE namespace = $1 AND key = $2 AND kind = $3 AND ${LIVE}`,
  // Locks the row (live or not) until the transaction ends: a concurrent writer of the same
  // key waits here and then reads what this one committed.
  lock: `SELECT * FROM ${TABLE} WHERE namespace = $1 AND key = $2 AND kind = $3 FOR UPDATE`,
  insert: `INSERT INTO ${TABLE} (${ENTRY_COLUMNS})
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
           ON CONFLICT (namespace, key, kind) DO NOTHING`,
  update: `UPDATE ${TABLE} SET value = $4, blob = $5, content_type = $6, metadata = $7, etag = $8,
             generation = $9, size_bytes = $10, created_at = $11, updated_at = $12, expires_at = $13
           WHERE namespace = $1 AND kind = $2 AND key = $3`,
  delete: `DELETE FROM ${TABLE} WHERE namespace = $1 AND key = $2 AND kind = $3`,
  list: `SELECT * FROM ${TABLE}
         WHERE namespace = $1
           AND ($2::text IS NULL OR kind = $2)
           AND starts_with(key, $3)
           AND ($4::text IS NULL OR key > $4 OR (key = $4 AND kind > $5))
           AND (expires_at IS NULL OR expires_at > $6)
         ORDER BY key, kind
         LIMIT $7`,
  purge: `DELETE FROM ${TABLE} WHERE expires_at IS NOT NULL AND expires_at <= $1 RETURNING *`,
} as const;

/** SQLSTATEs after which a write transaction is tried again: a deadlock, a serialization failure. */
const RETRYABLE = new Set(["40P01", "40001"]);
const MAX_ATTEMPTS = 5;
/** How long getting a connection may take before the call fails. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Options of {@link PostgresStore.connect}. */
export interface PostgresStoreOptions {
  /** The time source of TTLs (tests move it). Default the system clock. */
  now?: Clock;
  /** Connections of the pool. Default 10. */
  maxConnections?: number;
}

/** The `pg` module (node-postgres): an optional peer dependency, loaded only for this store. */
type PgModule = typeof import("pg");

/**
 * The storage database on PostgreSQL, for several processes (replicas) sharing one store:
 * the same entries and semantics as the SQLite store, in one table created on first use.
 * Every write is one transaction that locks the entry's row (`SELECT … FOR UPDATE`) before
 * it checks `if_match`, so two writers of one key are serialized and a conditional write
 * never overwrites an entry it did not see: no lost update, across processes.
 */
export class PostgresStore implements EntryStore {
  private closed: Promise<void> | undefined;

  private constructor(
    private readonly pool: Pool,
    private readonly now: Clock,
  ) {}

  /**
   * Loads `pg`, connects a pool to `url` and creates the table when missing (safe when
   * several processes start at once).
   *
   * @throws Error when `pg` is not installed, the server cannot be reached or refuses.
   */
  static async connect(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const pg = await loadPg();
    const pool = new pg.Pool({
      connectionString: url,
      max: options.maxConnections ?? 10,
      // A server that never answers (a dropped route) fails a call, and a readiness probe, in time.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // An idle connection's error (the server restarted) must not end the process; the
    // next query reports it and the pool replaces the connection.
    pool.on("error", () => {});
    try {
      await createSchema(pool);
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PostgresStore(pool, options.now ?? systemClock);
  }

  /** Whether the database answers a query now. */
  async ping(): Promise<boolean> {
    try {
      await this.pool.query("SELECT 1");
      return true;
    } catch {
      return false;
    }
  }

  async get(namespace: string, kind: EntryKind, key: string): Promise<Entry | undefined> {
    const { rows } = await this.pool.query<EntryRow>(SQL.get, [namespace, key, kind, this.now()]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  put(
    namespace: string,
    kind: EntryKind,
    key: string,
    write: EntryWrite,
    ifMatch?: string,
  ): Promise<PutOutcome> {
    return this.transaction(async (client) => {
      const now = this.now();
      const expired = (await client.query<EntryRow>(SQL.purge, [now])).rows.map(fromRow);
      const current = await lockLive(client, namespace, kind, key, now);
      if (ifMatch !== undefined && current?.etag !== ifMatch) return { ok: false as const, current };
      const entry = nextEntry(namespace, kind, key, write, current, now);
      if (current) {
        await client.query(SQL.update, toColumns(entry));
      } else if ((await client.query(SQL.insert, toColumns(entry))).rowCount === 0) {
        // Another writer created the key since the lock found nothing: start over, and see it.
        throw new KeyCreatedMeanwhile();
      }
      return { ok: true as const, entry, replaced: current, expired };
    });
  }

  delete(namespace: string, kind: EntryKind, key: string, ifMatch?: string): Promise<DeleteOutcome> {
    return this.transaction(async (client) => {
      const current = await lockLive(client, namespace, kind, key, this.now());
      if (ifMatch !== undefined && current?.etag !== ifMatch) return { ok: false as const, current };
      await client.query(SQL.delete, [namespace, key, kind]);
      return { ok: true as const, deleted: current };
    });
  }

  async list(namespace: string, query: ListQuery): Promise<EntryPage> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const { rows } = await this.pool.query<EntryRow>(SQL.list, [
      namespace,
      query.kind ?? null,
      query.prefix ?? "",
      after?.key ?? null,
      after?.kind ?? "",
      this.now(),
      query.limit + 1,
    ]);
    const items = rows.slice(0, query.limit).map(fromRow);
    const last = items[items.length - 1];
    const nextCursor =
      rows.length > query.limit && last ? encodeCursor({ key: last.key, kind: last.kind }) : null;
    return { items, nextCursor };
  }

  close(): Promise<void> {
    this.closed ??= this.pool.end();
    return this.closed;
  }

  /**
   * Runs `work` in one transaction on one connection: committed when it returns, rolled
   * back when it throws; tried again after a deadlock, a serialization failure or a key
   * created meanwhile.
   */
  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      let broken: unknown;
      try {
        await client.query("BEGIN");
        const result = await work(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch((rollbackError: unknown) => {
          broken = rollbackError; // the connection is unusable: the pool drops it
        });
        if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
      } finally {
        client.release(broken as Error | undefined);
      }
    }
  }
}

/** The live entry, its row locked until the transaction ends. */
async function lockLive(
  client: PoolClient,
  namespace: string,
  kind: EntryKind,
  key: string,
  now: number,
): Promise<Entry | undefined> {
  const { rows } = await client.query<EntryRow>(SQL.lock, [namespace, key, kind]);
  const row = rows[0];
  if (!row) return undefined;
  const entry = fromRow(row);
  return entry.expiresAt === null || entry.expiresAt > now ? entry : undefined;
}

class KeyCreatedMeanwhile extends Error {}

function isRetryable(error: unknown): boolean {
  if (error instanceof KeyCreatedMeanwhile) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && RETRYABLE.has(code);
}

async function createSchema(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [SCHEMA_LOCK]);
    for (const statement of SCHEMA) await client.query(statement);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function loadPg(): Promise<PgModule> {
  const module = (await importOptional("pg")) as PgModule & { default?: PgModule };
  // node-postgres is CommonJS: its exports arrive as the default export of the ES module.
  return module.default ?? module;
}

// A computed specifier, which bundlers leave alone: a plugin that stores nothing in
// PostgreSQL carries none of `pg`, and one that does loads it from its own node_modules.
function importOptional(specifier: string): Promise<unknown> {
  return import(specifier);
}
