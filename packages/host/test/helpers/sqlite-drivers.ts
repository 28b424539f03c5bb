import { builtinSqliteDriver } from "../../src/local/store/sqlite/builtin-driver.js";
import type { SqliteDriver } from "../../src/local/store/sqlite/store-database.js";
import { wasmSqliteDriver } from "../../src/local/store/sqlite/wasm-driver.js";

/**
 * Every SQLite the store can run on in this runtime: its own (`bun:sqlite` under Bun,
 * `node:sqlite` under Node 22.13+), then WebAssembly, which runs everywhere.
 */
export function sqliteDrivers(): SqliteDriver[] {
  const builtin = builtinSqliteDriver();
  return builtin ? [builtin, wasmSqliteDriver] : [wasmSqliteDriver];
}
