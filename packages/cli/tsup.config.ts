import { defineConfig } from "tsup";
import { extraBuild, libraryBuild } from "../../tooling/tsup-preset/src/index.js";

export default defineConfig([
  // The library: runConformance, the program factory and the dev helpers.
  libraryBuild({ entry: { index: "src/index.ts" } }),
  extraBuild({
    // The `executa` bin: one CommonJS file with a shebang; workspace packages stay external.
    entry: { cli: "src/cli.ts" },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    banner: { js: "#!/usr/bin/env node" },
  }),
]);
