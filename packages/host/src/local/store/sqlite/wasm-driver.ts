import { mkdirSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type WasmSqlite from "node-sqlite3-wasm";
import { HostError } from "../../../errors/host-error.js";
import { rollBackHotJournal } from "./hot-journal.js";
import type { SqliteDriver, SqlRow, SqlValue, StoreDatabase } from "./store-database.js";

/** The `node-sqlite3-wasm` module: SQLite compiled to WebAssembly, no native addon to build or download. */
export type WasmSqliteModule = typeof WasmSqlite;
type SqliteDatabase = InstanceType<WasmSqliteModule["Database"]>;
type Statement = ReturnType<SqliteDatabase["prepare"]>;

/**
 * SQLite compiled to WebAssembly, for runtimes without a SQLite of their own (Node 20), on
 * the module given: loading it compiles the WebAssembly (about 0.1 s), so each caller
 * loads it only where it is needed (see `loadSqliteDriver`).
 */
export function wasmSqliteDriver(sqlite: WasmSqliteModule): SqliteDriver {
  return {
    name: "wasm",
    open: (path, { schema }) => {
      const db = new WasmStoreDatabase(sqlite, path);
      try {
        db.transaction(() => db.exec(schema));
      } catch (error) {
        db.close();
        throw error;
      }
      return db;
    },
  };
}

/** A database of the WebAssembly SQLite, its statements prepared once per SQL text. */
class WasmStoreDatabase implements StoreDatabase {
  readonly driver = "wasm";
  private readonly db: SqliteDatabase;
  /** WebAssembly statements are freed by {@link WasmStoreDatabase.close}, not by GC. */
  private readonly statements = new Map<string, Statement>();

  constructor(
    sqlite: WasmSqliteModule,
    private readonly path: string,
  ) {
    this.db = openSqlite(sqlite, path);
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  all(sql: string, params: readonly SqlValue[]): SqlRow[] {
    return this.statement(sql).all([...params]) as SqlRow[];
  }

  run(sql: string, params: readonly SqlValue[]): void {
    this.statement(sql).run([...params]);
  }

  transaction<T>(work: () => T): T {
    return inTransaction(this.db, this.path, work);
  }

  /** Inside a transaction the lock is already held; outside, a stale lock is recovered from. */
  read<T>(work: () => T): T {
    return this.db.inTransaction
      ? work()
      : recoveringStaleLock(this.path, work, () => this.finalizeStatements());
  }

  close(): void {
    if (!this.db.isOpen) return;
    this.finalizeStatements();
    this.db.close();
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
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

/** How long a statement waits for another connection's transaction before failing. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * A lock older than this is left by a process that died inside a transaction: every
 * transaction of the store lasts milliseconds, and nothing else opens its file. Far above
 * that, since removing a live lock would let two writers in: on a machine busy with I/O a
 * transaction's three fsyncs can take seconds.
 */
const STALE_LOCK_MS = 45_000;

/**
 * Opens (and creates, with its folder) the database at `path`, or an in-memory one for
 * ":memory:". The file is written through Node's `fs` with a rollback journal and
 * `synchronous = FULL`: a commit is on disk when it returns, and a transaction cut short by
 * a crash is rolled back (by `rollBackHotJournal`) on the next open, or once its
 * lock is stale. WAL needs shared memory, which WebAssembly SQLite has not.
 */
function openSqlite(sqlite: WasmSqliteModule, path: string): SqliteDatabase {
  if (path !== ":memory:") {
    mkdirSync(dirname(path), { recursive: true });
    removeStaleLock(path);
    rollBackHotJournal(path);
  }
  const db = new sqlite.Database(path);
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    recoveringStaleLock(path, () => db.exec("PRAGMA journal_mode = DELETE"));
    db.exec("PRAGMA synchronous = FULL");
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * Runs `work` as one write transaction: committed when it returns, rolled back when it
 * throws. Taken with `BEGIN IMMEDIATE` so two connections never both read, then write.
 * Inside a transaction already, `work` becomes part of it.
 */
function inTransaction<T>(db: SqliteDatabase, path: string, work: () => T): T {
  if (db.inTransaction) return work();
  beginImmediate(db, path);
  try {
    const result = work();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

function beginImmediate(db: SqliteDatabase, path: string): void {
  recoveringStaleLock(path, () => db.exec("BEGIN IMMEDIATE"));
}

/**
 * Runs `work`, and once more when it failed on a lock left behind (after `beforeRetry`,
 * e.g. to drop statements the failure left unusable). The file's lock is a
 * `<file>.lock` folder: a process killed inside a transaction leaves it, and without this
 * every later statement would wait for it and fail.
 *
 * @throws HostError `STORE_LOCKED` when another process holds the lock past the wait.
 */
function recoveringStaleLock<T>(path: string, work: () => T, beforeRetry?: () => void): T {
  try {
    return work();
  } catch (error) {
    if (path === ":memory:" || !isBusy(error)) throw error;
    if (!removeStaleLock(path)) throw lockedError(path, error);
    rollBackHotJournal(path);
    beforeRetry?.();
    return work();
  }
}

function lockedError(path: string, cause: unknown): HostError {
  return new HostError(
    "STORE_LOCKED",
    `The local storage ${path} stayed locked by another process for ${BUSY_TIMEOUT_MS / 1000} s. ` +
      `Let that process finish; if none uses the file, remove ${path}.lock (a lock older than ` +
      `${STALE_LOCK_MS / 1000} s is removed on its own).`,
    { details: { path }, cause },
  );
}

function isBusy(error: unknown): boolean {
  return error instanceof Error && /database is locked/i.test(error.message);
}

/** Removes `<path>.lock` when it is older than {@link STALE_LOCK_MS}; true when it did. */
function removeStaleLock(path: string): boolean {
  const lock = `${path}.lock`;
  const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
  if (since === undefined || Date.now() - since < STALE_LOCK_MS) return false;
  rmSync(lock, { recursive: true, force: true });
  return true;
}
