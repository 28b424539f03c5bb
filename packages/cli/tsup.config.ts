import { defineConfig } from "tsup";
import { extraBuild, libraryBuild } from "../../tooling/tsup-preset/src/index.js";

export default defineConfig([
  // The library: runConformance, the program factory and the dev helpers.
  libraryBuild({ entry: { index: "src/index.ts" } }),
  extraBuild({
    // The `executa` bin's program, as ESM like everything it loads (@executa/host/local is
    // imported on demand): one module format, so one copy of core's classes per process.
    // Workspace packages stay external.
    entry: { cli: "src/cli.ts" },
    format: ["esm"],
  }),
]);
