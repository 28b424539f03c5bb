/**
 * The test tiers, lightest first: for each, its name, its command, what must be built
 * before it runs and which files it holds; read by vitest.config.ts, by `pnpm test`
 * (./run.mjs) and by the test that keeps docs/guide/contributing.md honest.
 *
 * A test file names its tier by a folder or a file-name suffix: a `process/`, `build/` or
 * `e2e/` folder anywhere under a `test/` folder, or a name ending in `-process.test.ts`,
 * `-build.test.ts` or `-e2e.test.ts`. The heaviest marker wins; a file with none is a unit test.
 */

/** Where vitest looks for test files. */
export const TEST_ROOTS = ["packages/*/test", "apps/*/test", "tooling/*/test"];

/** The globs of the files a tier's marker places in it. */
const marked = (marker) =>
  TEST_ROOTS.flatMap((root) => [`${root}/**/${marker}/**/*.test.ts`, `${root}/**/*-${marker}.test.ts`]);

/** @type {readonly import("./tiers.d.mts").Tier[]} */
export const TIERS = [
  {
    name: "unit",
    command: "pnpm test:unit",
    needs: [],
    include: TEST_ROOTS.map((root) => `${root}/**/*.test.ts`),
  },
  {
    name: "process",
    command: "pnpm test:process",
    needs: ["packages"],
    include: marked("process"),
  },
  {
    name: "build",
    command: "pnpm test:build",
    needs: ["packages"],
    include: marked("build"),
  },
  {
    name: "e2e",
    command: "pnpm test:e2e",
    needs: ["packages", "apps"],
    include: marked("e2e"),
  },
];

/**
 * The files vitest runs for `tier`: its globs less those of every heavier tier, so that each
 * file is in exactly one tier.
 */
export function tierFiles(tier) {
  const heavier = TIERS.slice(TIERS.findIndex((t) => t.name === tier.name) + 1);
  return { include: [...tier.include], exclude: heavier.flatMap((t) => t.include) };
}

/** The builds before each: `pnpm` arguments per need, in the order they must run. */
export const BUILDS = {
  packages: ["-r", "--workspace-concurrency=2", "--filter", "./packages/*", "run", "build"],
  apps: ["-r", "--workspace-concurrency=1", "--filter", "./apps/*", "run", "build"],
};
