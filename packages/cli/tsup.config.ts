import { defineConfig } from "tsup";

export default defineConfig([
  {
    // The library: runConformance, the program factory and the dev helpers.
    entry: { index: "src/index.ts" },
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node20",
  },
  {
    // The `executa` bin: one CommonJS file with a shebang; workspace packages stay external.
    entry: { cli: "src/cli.ts" },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    banner: { js: "#!/usr/bin/env node" },
    sourcemap: true,
    clean: false,
    target: "node20",
  },
]);
