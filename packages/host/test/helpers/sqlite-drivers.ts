import { builtinSqliteDriver } from "../../src/local/store/sqlite/builtin-driver.js";
import { loadWasmSqliteDriver } from "../../src/local/store/sqlite/load-driver.js";
import type { SqliteDriver } from "../../src/local/store/sqlite/store-database.js";

/**
 * Every SQLite the store can run on in this runtime: its own (`bun:sqlite` under Bun,
 * `node:sqlite` under Node 22.13+), then WebAssembly, which runs everywhere.
 */
export async function sqliteDrivers(): Promise<SqliteDriver[]> {
  const builtin = builtinSqliteDriver();
  const wasm = await loadWasmSqliteDriver();
  return builtin ? [builtin, wasm] : [wasm];
}
