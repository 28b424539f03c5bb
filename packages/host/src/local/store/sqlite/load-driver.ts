import { builtinSqliteDriver } from "./builtin-driver.js";
import type { SqliteDriver } from "./store-database.js";

/**
 * The runtime's own SQLite where it has one (see {@link builtinSqliteDriver}), else SQLite
 * compiled to WebAssembly, imported only then: its module compiles the WebAssembly as it
 * loads.
 */
export async function loadSqliteDriver(): Promise<SqliteDriver> {
  return builtinSqliteDriver() ?? (await import("./wasm-driver.js")).wasmSqliteDriver;
}
