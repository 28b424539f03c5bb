import { builtinSqliteDriver } from "./builtin-driver.js";
import type { SqliteDriver } from "./store-database.js";
import { wasmSqliteDriver } from "./wasm-driver.js";

/**
 * The runtime's own SQLite where it has one (see {@link builtinSqliteDriver}), else SQLite
 * compiled to WebAssembly, loaded only then (see {@link loadWasmSqliteDriver}).
 */
export async function loadSqliteDriver(): Promise<SqliteDriver> {
  return builtinSqliteDriver() ?? (await loadWasmSqliteDriver());
}

/**
 * SQLite compiled to WebAssembly, whatever the runtime. Its module compiles the
 * WebAssembly as it loads, so it is imported here, when asked for, and nowhere at start.
 */
export async function loadWasmSqliteDriver(): Promise<SqliteDriver> {
  const { default: sqlite } = await import("node-sqlite3-wasm");
  return wasmSqliteDriver(sqlite);
}
