import { defineConfig } from "tsup";
import { libraryBuild } from "../../tooling/tsup-preset/src/index.js";

// Three entries over the same modules: the public API, the reference SDKs' constant names,
// and the toolkit-internal one.
export default defineConfig(
  libraryBuild({
    entry: { index: "src/index.ts", reference: "src/reference.ts", internal: "src/internal.ts" },
  }),
);
