import { fileURLToPath } from "node:url";
import swc from "unplugin-swc";
import { defineConfig } from "vitest/config";

const pkg = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

// Tests import workspace packages from source, transformed by SWC so that decorator
// metadata (design:paramtypes) is present exactly as in a built bundle. Every file is
// transformed with the root tsconfig (decorator metadata on), not the nearest one: the
// SDK packages' own tsconfigs turn metadata off for their builds. Processes that tests
// spawn run built output instead (`pnpm test` builds first).
export default defineConfig({
  plugins: [
    swc.vite({
      tsconfigFile: fileURLToPath(new URL("./tsconfig.json", import.meta.url)),
      jsc: { target: "es2022" },
    }),
  ],
  resolve: {
    alias: [
      {
        find: /^@executa\/core\/internal$/,
        replacement: fileURLToPath(new URL("./packages/core/src/internal.ts", import.meta.url)),
      },
      {
        find: /^@executa\/host\/local$/,
        replacement: fileURLToPath(new URL("./packages/host/src/local/index.ts", import.meta.url)),
      },
      { find: /^@executa\/(core|decorators|host|bundler|testing|cli)$/, replacement: pkg("$1") },
    ],
  },
  test: {
    include: ["packages/*/test/**/*.test.ts", "apps/*/test/**/*.test.ts", "tooling/*/test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
