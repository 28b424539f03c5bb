import { closeSync, existsSync, fsyncSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import type { SqliteDriver, SqliteDriverName, SqlRow, SqlValue, StoreDatabase } from "./store-database.js";

/** How long a statement waits for another connection's transaction before failing. */
const BUSY_TIMEOUT_MS = 5000;

/** What `bun:sqlite`'s `Database` and `node:sqlite`'s `DatabaseSync` have in common. */
interface NativeDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): NativeStatement;
  close(): void;
}

interface NativeStatement {
  all(...params: SqlValue[]): unknown[];
  run(...params: SqlValue[]): unknown;
}

type NativeDatabaseClass = new (path: string) => NativeDatabase;

/**
 * The SQLite built into the running runtime: `bun:sqlite` under Bun, `node:sqlite` under a
 * Node that has it (22.5 and later); undefined under one that has neither (Node 20).
 * Looked up with `process.getBuiltinModule`, so nothing is loaded where it is missing and a
 * bundler has nothing to resolve.
 */
export function builtinSqliteDriver(): SqliteDriver | undefined {
  if (process.versions.bun !== undefined) {
    const Database = builtinModule<{ Database: NativeDatabaseClass }>("bun:sqlite")?.Database;
    if (Database) return nativeDriver("bun:sqlite", Database);
  }
  const DatabaseSync = builtinModule<{ DatabaseSync: NativeDatabaseClass }>("node:sqlite")?.DatabaseSync;
  return DatabaseSync ? nativeDriver("node:sqlite", DatabaseSync) : undefined;
}

function builtinModule<T>(id: string): T | undefined {
  try {
    // Node 20.16+ and Bun have it; `node:sqlite` before Node 22.13 needs a flag, else it throws.
    return process.getBuiltinModule?.(id) as T | undefined;
  } catch {
    return undefined;
  }
}

function nativeDriver(name: SqliteDriverName, Database: NativeDatabaseClass): SqliteDriver {
  return {
    name,
    open(path, { schema, sync = "normal" }) {
      const onDisk = path !== ":memory:";
      if (onDisk) mkdirSync(dirname(path), { recursive: true });
      const created = onDisk && !existsSync(path);
      const db = new NativeStoreDatabase(name, new Database(path));
      try {
        db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
        // A new file holds nothing to lose: its schema is written unsynced and the file
        // synced once below, where creating it as WAL with syncs on took eight fsyncs
        // (3 to 36 ms on a busy disk; 0.5 ms to reopen).
        if (created) db.exec("PRAGMA synchronous = OFF");
        db.transaction(() => db.exec(schema));
        // WAL: readers never block the writer. NORMAL: a commit is in the log when it returns,
        // so it survives the process being killed; only a power loss may undo the last ones.
        // FULL syncs the log on every commit, which bounds commits to the disk's sync rate.
        db.exec("PRAGMA journal_mode = WAL");
        db.exec(`PRAGMA synchronous = ${sync === "full" ? "FULL" : "NORMAL"}`);
        if (created) syncToDisk(path);
      } catch (error) {
        db.close();
        throw error;
      }
      return db;
    },
  };
}

/** Syncs a new file and the folder holding its name, so that both survive a power loss. */
function syncToDisk(path: string): void {
  for (const [target, flags] of [
    [path, "r+"],
    [dirname(path), "r"],
  ] as const) {
    const fd = openSync(target, flags);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

/** A database of the runtime's SQLite, its statements prepared once per SQL text. */
class NativeStoreDatabase implements StoreDatabase {
  private readonly statements = new Map<string, NativeStatement>();
  private inTransaction = false;
  private closed = false;

  constructor(
    readonly driver: SqliteDriverName,
    private readonly db: NativeDatabase,
  ) {}

  exec(sql: string): void {
    this.db.exec(sql);
  }

  all(sql: string, params: readonly SqlValue[]): SqlRow[] {
    return this.statement(sql).all(...params) as SqlRow[];
  }

  run(sql: string, params: readonly SqlValue[]): void {
    this.statement(sql).run(...params);
  }

  transaction<T>(work: () => T): T {
    if (this.inTransaction) return work();
    this.db.exec("BEGIN IMMEDIATE");
    this.inTransaction = true;
    try {
      const result = work();
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      try {
        this.db.exec("ROLLBACK");
      } catch {
        // SQLite ends a transaction itself on some failures (a full disk); the failure is the news.
      }
      throw error;
    } finally {
      this.inTransaction = false;
    }
  }

  read<T>(work: () => T): T {
    return work();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    this.db.close();
  }

  private statement(sql: string): NativeStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
