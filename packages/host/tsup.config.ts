import { defineConfig } from "tsup";
import { libraryBuild } from "../../tooling/tsup-preset/src/index.js";

// Two entries: the driver (no native module) and the local providers (better-sqlite3).
export default defineConfig(
  libraryBuild({ entry: { index: "src/index.ts", "local/index": "src/local/index.ts" } }),
);
