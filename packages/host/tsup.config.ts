import { defineConfig } from "tsup";
import { libraryBuild } from "../../tooling/tsup-preset/src/index.js";

// Two entries: the driver, and the local providers (SQLite: the runtime's own, or WebAssembly).
// Shims: the local host requires the WebAssembly SQLite relative to `import.meta.url`, which
// the CommonJS build gets from `__filename`.
export default defineConfig(
  libraryBuild({ entry: { index: "src/index.ts", "local/index": "src/local/index.ts" }, shims: true }),
);
