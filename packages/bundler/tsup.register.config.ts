import { defineConfig } from "tsup";
import { extraBuild } from "../../tooling/tsup-preset/src/index.js";

// `node --import @executa/bundler/register`: ES modules only, as --import and module.register
// need. Built after tsup.config.ts, into the dist/ it cleaned.
export default defineConfig(
  extraBuild({
    entry: { register: "src/register/index.ts", "register-hooks": "src/register/hooks.ts" },
    format: ["esm"],
    dts: { entry: { register: "src/register/index.ts" } },
  }),
);
