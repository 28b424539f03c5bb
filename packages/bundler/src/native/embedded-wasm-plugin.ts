import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { EsbuildPlugin } from "../swc/esbuild-swc-plugin.js";

const NAMESPACE = "executa-embedded-wasm";

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
}

/** The WebAssembly modules known to ship beside their loader (the local storage's SQLite). */
const EMSCRIPTEN_MODULES: readonly EmscriptenModule[] = [
  { packageName: "node-sqlite3-wasm", entry: "dist/node-sqlite3-wasm.js", wasm: "node-sqlite3-wasm.wasm" },
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
          // The suffix keeps the path from ending in `.js` (tsup's swc plugin loads those).
          return { path: `${resolved.path}#embedded-wasm`, namespace: NAMESPACE, pluginData: known };
        });
      }
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => {
        const known = args.pluginData as EmscriptenModule;
        const loader = args.path.slice(0, -"#embedded-wasm".length);
        const wasmPath = join(dirname(loader), known.wasm);
        const [source, wasm] = await Promise.all([readFile(loader, "utf8"), readFile(wasmPath)]);
        // Emscripten starts with `var Module = typeof Module != "undefined" ? Module : {}`:
        // a `var Module` declared before it in the same scope is the one it takes.
        const preset = `var Module = { wasmBinary: Buffer.from(${JSON.stringify(wasm.toString("base64"))}, "base64") };\n`;
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
