import { defineConfig } from "tsup";

export default defineConfig([
  {
    entry: ["src/index.ts"],
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node20",
    // import.meta.url locates postject and the register hook, in the CommonJS build too.
    shims: true,
  },
  {
    // `node --import @executa/bundler/register`: ES modules only, as --import and module.register need.
    entry: { register: "src/register/index.ts", "register-hooks": "src/register/hooks.ts" },
    format: ["esm"],
    dts: { entry: { register: "src/register/index.ts" } },
    sourcemap: true,
    clean: false,
    target: "node20",
  },
]);
