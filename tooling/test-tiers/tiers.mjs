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
 * The vitest group a tier's files run in (its `sequence.groupOrder`): the tiers that need
 * nothing built run first, in group 0; every other tier in group 1, one run after the builds,
 * its files and theirs interleaved longest first, so that the long files of every tier start
 * early and the short ones fill the cores at the end.
 */
export function runGroup(tier) {
  return tier.needs.length === 0 ? 0 : 1;
}

/**
 * What `pnpm test` does for the `chosen` tiers, in order: a vitest run of those that need
 * nothing built, then the builds the others need, then one vitest run of them all.
 */
export function testPlan(chosen) {
  const steps = [];
  for (const group of [0, 1]) {
    const tiers = chosen.filter((tier) => runGroup(tier) === group);
    if (tiers.length === 0) continue;
    const needs = new Set(tiers.flatMap((tier) => tier.needs));
    for (const need of Object.keys(BUILDS).filter((n) => needs.has(n))) steps.push({ build: need });
    steps.push({ tiers: tiers.map((tier) => tier.name) });
  }
  return steps;
}

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
