import { defineConfig } from "tsup";
import { libraryBuild } from "../../tooling/tsup-preset/src/index.js";

// import.meta.url locates postject and the register hook, in the CommonJS build too.
// The register entry is built after this one (tsup.register.config.ts): a build that
// cleans dist/ would race the other build's declaration files.
export default defineConfig(
  libraryBuild({ shims: true, entry: { index: "src/index.ts", vite: "src/vite/index.ts" } }),
);
