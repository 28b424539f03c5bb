import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import swc from "unplugin-swc";
import { runnerImport } from "vite";
import { configDefaults, defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./tooling/test-tiers/src/longest-first-sequencer.js";
import { runGroup, TIERS, tierFiles } from "./tooling/test-tiers/tiers.mjs";

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

// Workspace packages from source, for the tests and for the source reader itself.
const alias = [
  {
    find: /^@executa\/core\/(internal|capabilities|reference)$/,
    replacement: fileURLToPath(new URL("./packages/core/src/$1.ts", import.meta.url)),
  },
  {
    find: /^@executa\/host\/local$/,
    replacement: fileURLToPath(new URL("./packages/host/src/local/index.ts", import.meta.url)),
  },
  { find: /^@executa\/(core|decorators|host|bundler|testing|cli)$/, replacement: pkg("$1") },
];

// The source reader is loaded from source too, through vite's module runner with the
// aliases above: a static import would make the config's loader resolve @executa/core to
// its dist/, which the unit tier does not build.
const { module: sourceReader } = await runnerImport<typeof import("./packages/bundler/src/vite/index.js")>(
  fileURLToPath(new URL("./packages/bundler/src/vite/index.ts", import.meta.url)),
  { configFile: false, resolve: { alias } },
);

export default defineConfig({
  plugins: [
    sourceReader.executaSource({
      tsconfig: rootTsconfig,
      exclude: (file) => withoutSourceFacts.some((path) => file.endsWith(path)),
    }),
    swc.vite({
      tsconfigFile: rootTsconfig,
      jsc: { target: "es2022" },
    }),
  ],
  resolve: { alias },
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
          // The unit tier first; the tiers that need builds after it, as one group whose
          // files share both workers (a build file mostly waits on one child process at a
          // time: one worker each left a core idle for most of the build tier).
          sequence: { groupOrder: runGroup(tier) },
          setupFiles: tier.name === "unit" ? ["./tooling/test-tiers/src/in-process-only.ts"] : [],
          // Fixtures the process tier's files share, built once per run.
          globalSetup: tier.name === "process" ? ["./packages/testing/test/families/probe-setup.ts"] : [],
        },
      };
    }),
    // Within a group, the longest files first (tooling/test-tiers/durations.json), so that no
    // long file starts while the other worker runs out of work.
    sequence: { sequencer: LongestFirstSequencer },
    // Every core: vitest's default leaves one idle (availableParallelism − 1).
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
