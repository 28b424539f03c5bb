import { defineConfig } from "tsup";
import { libraryBuild } from "../../tooling/tsup-preset/src/index.js";

// Four entries over the same modules: the public API, the capabilities layer alone, the
// reference SDKs' constant names, and the toolkit-internal one.
export default defineConfig(
  libraryBuild({
    entry: {
      index: "src/index.ts",
      capabilities: "src/capabilities.ts",
      reference: "src/reference.ts",
      internal: "src/internal.ts",
    },
  }),
);
