import { defineConfig } from "tsup";
import { NODE_TARGET } from "../tsup-preset/src/index.js";

// The harness runs as plain Node ESM; @executa/core stays external (it is the subject
// under test and is resolved from packages/core/dist at run time), and so does
// @executa/bundler, which build-subjects.js loads from packages/bundler/dist.
export default defineConfig({
  entry: ["src/cli.ts", "src/build-subjects.ts"],
  format: ["esm"],
  dts: false,
  sourcemap: true,
  clean: true,
  target: NODE_TARGET,
  external: ["@executa/bundler"],
});
