import { defineConfig } from "tsup";
import { libraryBuild } from "../../tooling/tsup-preset/src/index.js";

// Two entries over the same modules: the public API and the toolkit-internal one.
export default defineConfig(libraryBuild({ entry: { index: "src/index.ts", internal: "src/internal.ts" } }));
