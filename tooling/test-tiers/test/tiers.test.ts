// The test tiers as vitest sees them: every test file of the repository in exactly one
// project, and the contributing guide's tier table naming each tier and its command.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVitest, type Vitest } from "vitest/node";
import { DEFAULT_DURATION_MS, expectedDuration, readDurations } from "../durations.mjs";
import { runGroup, TIERS, testPlan } from "../tiers.mjs";

const root = fileURLToPath(new URL("../../..", import.meta.url));

/** Test files that vitest does not run, with who does. */
const RUN_ELSEWHERE = {
  // the generated project's own test, run inside it by `pnpm test:registry`
  "tooling/registry-e2e/issue-tracker/test/plugin.test.ts": "pnpm test:registry",
};

/** Every `*.test.ts` under packages/, apps/ and tooling/, outside node_modules and dist. */
function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return ["node_modules", "dist"].includes(entry.name) ? [] : testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("test tiers", () => {
  let vitest: Vitest;
  beforeAll(async () => {
    vitest = await createVitest("test", { root, watch: false, config: join(root, "vitest.config.ts") });
  });
  afterAll(() => vitest?.close());

  it("places every test file in exactly one tier", async () => {
    const specifications = await vitest.globTestSpecifications();
    const tiersOf = new Map<string, string[]>();
    for (const spec of specifications) {
      const file = relative(root, spec.moduleId);
      tiersOf.set(file, [...(tiersOf.get(file) ?? []), spec.project.name]);
    }
    const files = ["packages", "apps", "tooling"].flatMap(testFiles).filter((f) => !(f in RUN_ELSEWHERE));
    expect(files.length).toBeGreaterThan(200);
    expect(files.filter((file) => tiersOf.get(file)?.length !== 1)).toEqual([]);
    expect([...tiersOf.keys()].filter((file) => !files.includes(file))).toEqual([]);
    expect(new Set([...tiersOf.values()].map((names) => names[0]))).toEqual(
      new Set(TIERS.map((t) => t.name)),
    );
  });

  it("runs the unit tier alone first, the others as one group that shares every worker", () => {
    const projects = new Map(vitest.projects.map((p) => [p.name, p.config]));
    expect(projects.get("unit")?.sequence.groupOrder).toBe(0);
    const later = TIERS.filter((tier) => tier.name !== "unit").map((tier) => projects.get(tier.name));
    expect(later.map((config) => config?.sequence.groupOrder)).toEqual([1, 1, 1]);
    // vitest refuses one group whose projects have different maxWorkers
    expect(new Set(later.map((config) => config?.maxWorkers))).toEqual(new Set([vitest.config.maxWorkers]));
  });

  // Files added since the table was last refreshed are not counted: their time is a guess.
  it("has the contributing guide state each tier's file time within a quarter of the durations table's measured files", async () => {
    const guide = readFileSync(join(root, "docs/guide/contributing.md"), "utf8");
    const table = readDurations();
    const seconds = new Map<string, number>();
    for (const spec of await vitest.globTestSpecifications()) {
      const file = relative(root, spec.moduleId).split("\\").join("/");
      const name = spec.project.name;
      if (!Object.hasOwn(table, file)) continue;
      seconds.set(name, (seconds.get(name) ?? 0) + expectedDuration(table, file) / 1000);
    }
    for (const tier of TIERS) {
      const row = guide.split("\n").find((line) => line.startsWith(`| ${tier.name} | `));
      const stated = Number(/\| ([\d,]+) s \|$/.exec(row ?? "")?.[1]?.replace(",", ""));
      const measured = seconds.get(tier.name) ?? 0;
      expect(
        Math.abs(stated - measured) / measured,
        `${tier.name}: ${stated} s stated, ${measured} s in the table`,
      ).toBeLessThan(0.25);
    }
  });

  it("orders each run's files by the committed durations, longest first", () => {
    expect(vitest.config.sequence.sequencer.name).toBe("LongestFirstSequencer");
  });

  it("places a file by its folder or the suffix of its name, the heaviest marker winning", () => {
    const project = (file: string) =>
      vitest.projects.filter((p) => p.matchesTestGlob(join(root, file), () => "")).map((p) => p.name);
    expect(project("packages/core/test/server/new-thing.test.ts")).toEqual(["unit"]);
    expect(project("packages/core/test/server/new-thing-process.test.ts")).toEqual(["process"]);
    expect(project("packages/core/test/process/new-thing.test.ts")).toEqual(["process"]);
    expect(project("packages/bundler/test/build/deep/new-thing.test.ts")).toEqual(["build"]);
    expect(project("packages/cli/test/process/new-thing-build.test.ts")).toEqual(["build"]);
    expect(project("apps/toolbox/test/e2e/new-thing-process.test.ts")).toEqual(["e2e"]);
    expect(project("tooling/bench/test/new-thing-e2e.test.ts")).toEqual(["e2e"]);
  });
});

describe("pnpm test's plan", () => {
  const tiers = (...names: string[]) => TIERS.filter((tier) => names.includes(tier.name));

  it("runs the unit tier before any build, then builds everything the others need, then runs them in one run", () => {
    expect(testPlan(TIERS)).toEqual([
      { tiers: ["unit"] },
      { build: "packages" },
      { build: "apps" },
      { tiers: ["process", "build", "e2e"] },
    ]);
    expect(TIERS.map(runGroup)).toEqual([0, 1, 1, 1]);
  });

  it("builds only what the chosen tiers need", () => {
    expect(testPlan(tiers("unit"))).toEqual([{ tiers: ["unit"] }]);
    expect(testPlan(tiers("process", "build"))).toEqual([
      { build: "packages" },
      { tiers: ["process", "build"] },
    ]);
    expect(testPlan(tiers("e2e"))).toEqual([{ build: "packages" }, { build: "apps" }, { tiers: ["e2e"] }]);
  });
});

describe("the contributing guide", () => {
  const guide = readFileSync(join(root, "docs/guide/contributing.md"), "utf8");
  const scripts: Record<string, string> = JSON.parse(
    readFileSync(join(root, "package.json"), "utf8"),
  ).scripts;

  it("lists each tier with its command, and the command exists", () => {
    for (const tier of TIERS) {
      expect(guide).toMatch(new RegExp(`\\| ${tier.name} \\| \`${tier.command}\` \\|`));
      expect(scripts[tier.command.replace(/^pnpm /, "")]).toBeDefined();
    }
  });

  it("explains the order of a tier's files: the durations table, its default, its refresh", () => {
    const text = guide.replace(/\s+/g, " ");
    expect(text).toContain("`tooling/test-tiers/durations.json`");
    expect(text).toContain(`counts as ${DEFAULT_DURATION_MS / 1000} s`);
    expect(text).toContain("`node tooling/test-tiers/refresh-durations.mjs`");
  });

  it("names every step CI runs", () => {
    const ci = readFileSync(join(root, ".ci/run"), "utf8").replace(/^\s*#.*$/gm, "");
    const steps = [...ci.matchAll(/\bpnpm ([\w:-]+)/g)]
      .map((match) => match[1] ?? "")
      .filter((name) => name in scripts)
      .map((name) => `pnpm ${name}`);
    expect(steps).toContain("pnpm test");
    expect(steps.filter((step) => !guide.includes(`\`${step}\``))).toEqual([]);
  });
});
