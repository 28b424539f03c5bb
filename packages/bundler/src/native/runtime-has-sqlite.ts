/**
 * Defined as `true` when compiling for a runtime with SQLite built in (Bun's
 * `bun:sqlite`): the embedded WebAssembly of a module that is loaded only where there is
 * none is then left out of the binary (see `onlyWithoutBuiltinSqliteFor` in embedded-wasm-plugin.ts).
 * A property of `globalThis`, so that it is merely undefined elsewhere, and a minifier
 * leaves the test as it is for the compiler to fold.
 */
export const RUNTIME_HAS_SQLITE = "globalThis.__EXECUTA_RUNTIME_HAS_SQLITE__";
