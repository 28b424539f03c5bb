import { defineConfig } from "tsup";
import { extraBuild, libraryBuild } from "../../tooling/tsup-preset/src/index.js";

export default defineConfig([
  // import.meta.url locates postject and the register hook, in the CommonJS build too.
  libraryBuild({ shims: true, entry: { index: "src/index.ts", vite: "src/vite/index.ts" } }),
  extraBuild({
    // `node --import @executa/bundler/register`: ES modules only, as --import and module.register need.
    entry: { register: "src/register/index.ts", "register-hooks": "src/register/hooks.ts" },
    format: ["esm"],
    dts: { entry: { register: "src/register/index.ts" } },
  }),
]);
