/** A value SQLite stores for the local store: text, a number, or NULL. */
export type SqlValue = string | number | null;

/** One result row, by column name. */
export type SqlRow = Record<string, SqlValue>;

/** Which SQLite a store runs on: the runtime's own (`bun:sqlite`, `node:sqlite`) or WebAssembly. */
export type SqliteDriverName = "bun:sqlite" | "node:sqlite" | "wasm";

/**
 * One open SQLite database as the local store uses it: parameters are positional (`?1`,
 * `?2`, …), statements are prepared once per SQL text, and a write is one transaction,
 * durable when {@link StoreDatabase.transaction} returns.
 */
export interface StoreDatabase {
  readonly driver: SqliteDriverName;
  /** Runs one or more statements without parameters (the schema). */
  exec(sql: string): void;
  /** Every row of one statement. */
  all(sql: string, params: readonly SqlValue[]): SqlRow[];
  /** Runs one statement for its effect. */
  run(sql: string, params: readonly SqlValue[]): void;
  /**
   * Runs `work` as one write transaction (`BEGIN IMMEDIATE`, so two connections never both
   * read, then write): committed when it returns, rolled back when it throws. Inside a
   * transaction already, `work` becomes part of it.
   */
  transaction<T>(work: () => T): T;
  /** Runs reads outside a transaction (a driver may retry them once past a stale lock). */
  read<T>(work: () => T): T;
  /** Closes the database; a second call does nothing. */
  close(): void;
}

/**
 * When a commit reaches the disk. `"normal"`: the runtime's SQLite (WAL) syncs at
 * checkpoints, so a commit survives the process being killed but a power loss may undo the
 * last ones. `"full"`: every commit is synced before it returns (fewer commits per
 * second). The WebAssembly SQLite always syncs every commit.
 */
export type StoreSync = "normal" | "full";

/** How {@link SqliteDriver.open} opens a database. */
export interface StoreOpenOptions {
  /** Statements that create the tables when missing (`CREATE … IF NOT EXISTS`), run in one transaction. */
  schema: string;
  /** When a commit reaches the disk; default `"normal"`. */
  sync?: StoreSync;
}

/** Opens databases of one kind of SQLite. */
export interface SqliteDriver {
  readonly name: SqliteDriverName;
  /**
   * Opens (and creates, with its folder) the database at `path`, or an in-memory one for
   * ":memory:", with its schema.
   */
  open(path: string, options: StoreOpenOptions): StoreDatabase;
}
