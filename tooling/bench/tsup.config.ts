import { defineConfig } from "tsup";

// The harness runs as plain Node ESM; @executa/core stays external (it is the subject
// under test and is resolved from packages/core/dist at run time).
export default defineConfig({
  entry: ["src/cli.ts"],
  format: ["esm"],
  dts: false,
  sourcemap: true,
  clean: true,
  target: "node20",
});
