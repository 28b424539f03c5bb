// The order of a run's files: tiers in their order, the longest files of each first by the
// committed table, a file the table does not know at the default; and the table's refresh.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_DURATION_MS,
  DURATIONS_FILE,
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

  it("keeps the tiers in their order, however long a lighter tier's files are", () => {
    const files = [
      spec("e2e", 3, "e.test.ts"),
      spec("build", 2, "b.test.ts"),
      spec("process", 1, "p.test.ts"),
    ];
    expect(order(files, { "p.test.ts": 1, "b.test.ts": 10, "e.test.ts": 100 })).toEqual([
      "p.test.ts",
      "b.test.ts",
      "e.test.ts",
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
    expect(existsSync(join(repository, "packages/cli/test/commands/build-all-build.test.ts"))).toBe(true);
    expect(table["packages/cli/test/commands/build-all-build.test.ts"]).toBeGreaterThan(DEFAULT_DURATION_MS);
  });
});
