import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { EsbuildPlugin } from "../swc/esbuild-swc-plugin.js";
import { owningPackage } from "./owning-package.js";
import { RUNTIME_HAS_SQLITE } from "./runtime-has-sqlite.js";

const NAMESPACE = "executa-embedded-wasm";
/** Ends the path of an embedded module, so it does not end in `.js` (tsup's swc plugin loads those). */
const SUFFIX = "#embedded-wasm";
/** Ends it instead when the bytes may be left out where the runtime has SQLite built in. */
const SUFFIX_UNLESS_BUILTIN_SQLITE = "#embedded-wasm-unless-builtin-sqlite";

/**
 * A module compiled by Emscripten that reads its `.wasm` file beside itself at run time.
 * `wasm` is the file, relative to the module's folder.
 */
interface EmscriptenModule {
  /** The package, as imported. */
  packageName: string;
  /** The module's file inside the package. */
  entry: string;
  wasm: string;
  /**
   * The package that loads this module only where the runtime has no SQLite of its own.
   * Imported from that package, the module's bytes are left out of a binary for a runtime
   * that has one ({@link RUNTIME_HAS_SQLITE}); imported from anywhere else, they stay.
   */
  onlyWithoutBuiltinSqliteFor?: string;
}

/** The WebAssembly modules known to ship beside their loader (the local storage's SQLite). */
const EMSCRIPTEN_MODULES: readonly EmscriptenModule[] = [
  {
    packageName: "node-sqlite3-wasm",
    entry: "dist/node-sqlite3-wasm.js",
    wasm: "node-sqlite3-wasm.wasm",
    onlyWithoutBuiltinSqliteFor: "@executa/host",
  },
];

/**
 * Embeds the WebAssembly of Emscripten-compiled packages in the bundle, so a single
 * executable needs no file beside it. Such a loader reads `<its folder>/<name>.wasm` at
 * run time, a file a bundle leaves behind; given the bytes as its module's `wasmBinary`,
 * it reads nothing. The bytes are the same on every platform, so the bundle builds for all.
 */
export function embeddedWasmPlugin(): EsbuildPlugin {
  return {
    name: "executa-embedded-wasm",
    setup(build) {
      for (const known of EMSCRIPTEN_MODULES) {
        const filter = new RegExp(`^${known.packageName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
        build.onResolve({ filter }, async (args) => {
          if ((args.pluginData as { embedding?: boolean } | undefined)?.embedding) return undefined;
          const resolved = await build.resolve(args.path, {
            kind: args.kind,
            importer: args.importer,
            resolveDir: args.resolveDir,
            pluginData: { embedding: true },
          });
          if (resolved.errors.length > 0) return { errors: resolved.errors };
          const omittable =
            known.onlyWithoutBuiltinSqliteFor !== undefined &&
            owningPackage(args.importer)?.name === known.onlyWithoutBuiltinSqliteFor;
          const suffix = omittable ? SUFFIX_UNLESS_BUILTIN_SQLITE : SUFFIX;
          return { path: `${resolved.path}${suffix}`, namespace: NAMESPACE, pluginData: known };
        });
      }
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => {
        const known = args.pluginData as EmscriptenModule;
        const omittable = args.path.endsWith(SUFFIX_UNLESS_BUILTIN_SQLITE);
        const loader = args.path.slice(0, -(omittable ? SUFFIX_UNLESS_BUILTIN_SQLITE : SUFFIX).length);
        const wasmPath = join(dirname(loader), known.wasm);
        const [source, wasm] = await Promise.all([readFile(loader, "utf8"), readFile(wasmPath)]);
        const bytes = `Buffer.from(${JSON.stringify(wasm.toString("base64"))}, "base64")`;
        // Where the flag is defined as true, the compiler folds the condition and drops the bytes.
        const wasmBinary = omittable ? `${RUNTIME_HAS_SQLITE} ? undefined : ${bytes}` : bytes;
        // Emscripten starts with `var Module = typeof Module != "undefined" ? Module : {}`:
        // a `var Module` declared before it in the same scope is the one it takes.
        const preset = `var Module = { wasmBinary: ${wasmBinary} };\n`;
        return {
          contents: preset + source,
          loader: "js",
          resolveDir: dirname(loader),
          watchFiles: [loader, wasmPath],
        };
      });
    },
  };
}
