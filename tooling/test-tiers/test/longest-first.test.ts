// The order of a run's files: groups in their order, the longest files of each first by the
// committed table, a file the table does not know at the default; and the table's refresh.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_DURATION_MS,
  DURATIONS_FILE,
  durationsFromLog,
  expectedDuration,
  mergeDurations,
  readDurations,
} from "../durations.mjs";
import { longestFirst, type Ordered } from "../src/longest-first-sequencer.js";

const root = "/repo";
const spec = (project: string, groupOrder: number, path: string): Ordered => ({
  moduleId: `${root}/${path}`,
  project: { name: project, config: { sequence: { groupOrder } } },
});
const order = (files: Ordered[], table: Record<string, number>) =>
  longestFirst(files, table, root).map((file) => file.moduleId.slice(root.length + 1));

describe("longestFirst", () => {
  it("runs a tier's longest files first, by the table", () => {
    const files = [
      spec("build", 2, "a-build.test.ts"),
      spec("build", 2, "b-build.test.ts"),
      spec("build", 2, "c-build.test.ts"),
    ];
    expect(
      order(files, { "a-build.test.ts": 1_000, "b-build.test.ts": 90_000, "c-build.test.ts": 30_000 }),
    ).toEqual(["b-build.test.ts", "c-build.test.ts", "a-build.test.ts"]);
  });

  it("keeps the groups in their order, however long a lighter group's files are", () => {
    const files = [spec("e2e", 1, "e.test.ts"), spec("unit", 0, "u.test.ts"), spec("build", 1, "b.test.ts")];
    expect(order(files, { "u.test.ts": 1_000, "b.test.ts": 10, "e.test.ts": 100 })).toEqual([
      "u.test.ts",
      "e.test.ts",
      "b.test.ts",
    ]);
  });

  it("interleaves the tiers of one group, longest first whatever the tier", () => {
    const files = [
      spec("process", 1, "p-short.test.ts"),
      spec("build", 1, "b-short.test.ts"),
      spec("e2e", 1, "e-long.test.ts"),
      spec("process", 1, "p-long.test.ts"),
      spec("build", 1, "b-long.test.ts"),
    ];
    const table = {
      "p-short.test.ts": 1_000,
      "b-short.test.ts": 5_000,
      "e-long.test.ts": 90_000,
      "p-long.test.ts": 30_000,
      "b-long.test.ts": 110_000,
    };
    expect(order(files, table)).toEqual([
      "b-long.test.ts",
      "e-long.test.ts",
      "p-long.test.ts",
      "b-short.test.ts",
      "p-short.test.ts",
    ]);
  });

  it("places a file the table does not know at the default, between longer and shorter known ones", () => {
    const files = [
      spec("process", 1, "short.test.ts"),
      spec("process", 1, "new.test.ts"),
      spec("process", 1, "long.test.ts"),
    ];
    const table = { "short.test.ts": DEFAULT_DURATION_MS / 2, "long.test.ts": DEFAULT_DURATION_MS * 2 };
    expect(order(files, table)).toEqual(["long.test.ts", "new.test.ts", "short.test.ts"]);
    expect(expectedDuration(table, "new.test.ts")).toBe(DEFAULT_DURATION_MS);
  });

  it("orders by path when nothing is known, so every run has the same order", () => {
    const files = [spec("unit", 0, "b.test.ts"), spec("unit", 0, "a.test.ts")];
    expect(order(files, {})).toEqual(["a.test.ts", "b.test.ts"]);
  });
});

describe("the durations table", () => {
  it("is refreshed from measured figures: updated, added, and files no longer there dropped", () => {
    const table = { "kept.test.ts": 5_000, "updated.test.ts": 1_000, "gone.test.ts": 9_000 };
    const measured = { "updated.test.ts": 2_345.6, "added.test.ts": 700.2 };
    expect(mergeDurations(table, measured, (path) => path !== "gone.test.ts")).toEqual({
      "added.test.ts": 700,
      "kept.test.ts": 5_000,
      "updated.test.ts": 2_346,
    });
  });

  it("is read from a run's output: each passing file of a tier, in ms or s, colours and all", () => {
    const log = [
      " \x1b[32m✓\x1b[39m \x1b[30;46m build \x1b[49;39m packages/cli/test/a-build.test.ts \x1b[2m(9 tests)\x1b[22m\x1b[33m 110181\x1b[2mms\x1b[22m\x1b[39m",
      " ✓  unit  packages/core/test/b.test.ts (11 tests | 2 skipped) 1486ms",
      " ✓  e2e  apps/toolbox/test/c-e2e.test.ts (1 test) 2.5s",
      " ×  process  packages/host/test/failed-process.test.ts (3 tests | 1 failed) 900ms",
      "   ✓ a test's own line, not a file's  16980ms",
      " ✓  other  tooling/x/test/elsewhere.test.ts (1 test) 5ms",
    ].join("\n");
    expect(durationsFromLog(log, (project) => project !== "other")).toEqual({
      "packages/cli/test/a-build.test.ts": 110_181,
      "packages/core/test/b.test.ts": 1_486,
      "apps/toolbox/test/c-e2e.test.ts": 2_500,
    });
  });

  it("reads as empty when missing, so that the order never fails a run", () => {
    expect(readDurations(join(fileURLToPath(new URL(".", import.meta.url)), "no-such-table.json"))).toEqual(
      {},
    );
  });

  it("is committed, in milliseconds, with keys that are paths from the repository root", () => {
    const repository = fileURLToPath(new URL("../../..", import.meta.url));
    const table: Record<string, unknown> = JSON.parse(readFileSync(DURATIONS_FILE, "utf8"));
    const entries = Object.entries(table);
    expect(entries.length).toBeGreaterThan(0);
    for (const [path, ms] of entries) {
      expect(path).toMatch(/^(packages|apps|tooling)\/.+\.test\.ts$/);
      expect(Number.isInteger(ms) && (ms as number) >= 0, `${path}: ${ms}`).toBe(true);
    }
    // Rough is fine, but the longest files must be known for the order to help.
    expect(existsSync(join(repository, "packages/cli/test/commands/new/release-workflow-e2e.test.ts"))).toBe(
      true,
    );
    expect(table["packages/cli/test/commands/new/release-workflow-e2e.test.ts"]).toBeGreaterThan(
      DEFAULT_DURATION_MS,
    );
  });
});
