import { defineConfig } from "tsup";
import { libraryBuild } from "../../tooling/tsup-preset/src/index.js";

// Two entries: the driver, and the local providers (SQLite compiled to WebAssembly).
export default defineConfig(
  libraryBuild({ entry: { index: "src/index.ts", "local/index": "src/local/index.ts" } }),
);
