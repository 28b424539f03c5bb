import { defineConfig } from "tsup";
import { NODE_TARGET } from "../tsup-preset/src/index.js";

// The harness runs as plain Node ESM; @executa/core stays external (it is the subject
// under test and is resolved from packages/core/dist at run time), and so does
// @executa/bundler, which build-subjects.js loads from packages/bundler/dist.
export default defineConfig({
  entry: {
    cli: "src/cli.ts",
    "build-subjects": "src/build-subjects.ts",
    gate: "src/gate/cli.ts",
    "build-busy-wait": "src/gate/build-busy-wait.ts",
  },
  format: ["esm"],
  dts: false,
  sourcemap: true,
  clean: true,
  target: NODE_TARGET,
  external: ["@executa/bundler"],
});
