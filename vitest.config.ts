import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import swc from "unplugin-swc";
import { configDefaults, defineConfig } from "vitest/config";
import { executaSource } from "./packages/bundler/src/vite/index.js";
import { TIERS, tierFiles } from "./tooling/test-tiers/tiers.mjs";

const pkg = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

// Tests import workspace packages from source, transformed by SWC so that decorator
// metadata (design:paramtypes) is present exactly as in a built bundle. Every file is
// transformed with the root tsconfig (decorator metadata on), not the nearest one: the
// SDK packages' own tsconfigs turn metadata off for their builds. Processes that tests
// spawn run built output instead (`pnpm test` builds what each tier needs before it).
//
// executaSource records what the TypeScript types and doc comments of decorated classes
// say, as `executa build` and `executa dev` do, so that in-process runs describe the same
// manifest as the built plugin. Left out: tests of what the decorators do with
// reflection alone (no source reader in the build) and tests that record source facts
// by hand, which the reader's own recording would replace.
const rootTsconfig = fileURLToPath(new URL("./tsconfig.json", import.meta.url));
const withoutSourceFacts = [
  "packages/decorators/test/errors/definition-error-codes.test.ts",
  "packages/decorators/test/model/startup-errors.test.ts",
  "packages/decorators/test/source-info/source-dto.test.ts",
  "packages/decorators/test/source-info/source-mismatch.test.ts",
  "packages/decorators/test/source-info/source-parameters.test.ts",
];

export default defineConfig({
  plugins: [
    executaSource({
      tsconfig: rootTsconfig,
      exclude: (file) => withoutSourceFacts.some((path) => file.endsWith(path)),
    }),
    swc.vite({
      tsconfigFile: rootTsconfig,
      jsc: { target: "es2022" },
    }),
  ],
  resolve: {
    alias: [
      {
        find: /^@executa\/core\/(internal|capabilities|reference)$/,
        replacement: fileURLToPath(new URL("./packages/core/src/$1.ts", import.meta.url)),
      },
      {
        find: /^@executa\/host\/local$/,
        replacement: fileURLToPath(new URL("./packages/host/src/local/index.ts", import.meta.url)),
      },
      { find: /^@executa\/(core|decorators|host|bundler|testing|cli)$/, replacement: pkg("$1") },
    ],
  },
  test: {
    // One project per tier (tooling/test-tiers/tiers.mjs says which files each holds).
    projects: TIERS.map((tier) => {
      const { include, exclude } = tierFiles(tier);
      return {
        extends: true,
        test: {
          name: tier.name,
          include,
          exclude: [...configDefaults.exclude, ...exclude],
          setupFiles: tier.name === "unit" ? ["./tooling/test-tiers/src/in-process-only.ts"] : [],
          // Fixtures the process tier's files share, built once per run.
          globalSetup: tier.name === "process" ? ["./packages/testing/test/families/probe-setup.ts"] : [],
        },
      };
    }),
    // Every core: vitest's default leaves one idle (availableParallelism − 1).
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
