import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { benchConfig } from "../src/config.js";
import { renderMarkdown } from "../src/report/markdown.js";
import type { BenchResults } from "../src/results.js";
import { type BenchPaths, BUN_TOOLBOX_BUILDS, bunToolboxBinary, discoverSubjects } from "../src/subjects.js";

const ALL_IDS = [
  "baseline",
  "toolbox-sea",
  "toolbox-bun",
  "toolbox-bun-bytecode",
  "toolbox-node",
  "core-plugin",
  "dto-plugin",
  "floor",
];
const OPTIONAL_IDS = ALL_IDS.filter((id) => id !== "baseline" && id !== "floor");

// Discovery against a fake repository layout: every artifact present, then none.
describe("subject discovery", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  function layout(): BenchPaths {
    root = mkdtempSync(join(tmpdir(), "bench-subjects-"));
    return { repoRoot: root, benchDir: join(root, "tooling", "bench") };
  }

  function touch(file: string): void {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "");
  }

  it("finds every built subject: the toolbox built with each runtime, in its own folder", () => {
    const paths = layout();
    const exe = process.platform === "win32" ? "toolbox.exe" : "toolbox";
    touch(join(paths.repoRoot, "apps", "toolbox", "dist", "toolbox.cjs"));
    touch(join(paths.repoRoot, "packages", "core", "dist", "index.js"));
    touch(join(paths.benchDir, "subjects", "dist", "dto-plugin.cjs"));
    for (const build of BUN_TOOLBOX_BUILDS) touch(bunToolboxBinary(paths, build));

    const { subjects, skipped } = discoverSubjects(paths);
    expect(subjects.map((s) => s.id)).toEqual(ALL_IDS);
    expect(skipped).toEqual([]);
    for (const id of ["toolbox-sea", "toolbox-bun", "toolbox-bun-bytecode"]) {
      const subject = subjects.find((s) => s.id === id)!;
      expect(subject.role).toBe("sdk");
      expect(subject.serves).toBe(true);
      expect(subject.validationOnly).toBeUndefined();
      expect(subject.line).toEqual({
        command: join(paths.benchDir, "subjects", "dist", id, exe),
        args: [],
      });
    }
    expect(subjects.find((s) => s.id === "toolbox-bun")!.label).toBe("toolbox (Bun executable)");
    expect(BUN_TOOLBOX_BUILDS.map((b) => [b.id, b.runtime, b.bytecode])).toEqual([
      ["toolbox-sea", "node", false],
      ["toolbox-bun", "bun", false],
      ["toolbox-bun-bytecode", "bun", true],
    ]);
  });

  it("lists what is not built as skipped, with the reason", () => {
    const paths = layout();
    const { subjects, skipped } = discoverSubjects(paths);
    expect(subjects.map((s) => s.id)).toEqual(["baseline", "floor"]);
    expect(skipped.map((s) => s.id).sort()).toEqual([...OPTIONAL_IDS].sort());
    for (const id of ["toolbox-sea", "toolbox-bun", "toolbox-bun-bytecode"]) {
      expect(skipped.find((s) => s.id === id)?.reason).toMatch(
        /not built \(pnpm --filter @executa\/bench build:subjects\)/,
      );
    }
  });
});

describe("markdown report", () => {
  function results(sizes: Record<string, number | undefined>): BenchResults {
    const ids = Object.keys(sizes);
    return {
      schema: 1,
      mode: "smoke",
      startedAt: "2026-01-01T00:00:00.000Z",
      durationS: 1,
      environment: { node: "v20.20.2", platform: "linux", arch: "x64", cpus: 2, cpuModel: "test" },
      config: benchConfig("smoke"),
      subjects: ids.map((id, i) => ({
        id,
        label: id,
        role: i === 0 ? "baseline" : "sdk",
        command: [id],
        ...(sizes[id] === undefined ? {} : { executableBytes: sizes[id] }),
      })),
      skipped: [],
      figures: Object.fromEntries(
        ids.map((id) => [id, { coldStartMs: { median: 1, min: 1, max: 1, values: [1] } }]),
      ),
      ratios: [],
    };
  }

  it("lists the size of each executable subject", () => {
    const markdown = renderMarkdown(
      results({ baseline: undefined, "toolbox-sea": 99 * 1024 * 1024, "toolbox-bun": 104.5 * 1024 * 1024 }),
    );
    expect(markdown).toContain("Executable sizes: toolbox-sea 99.0 MiB; toolbox-bun 105 MiB.");
  });

  it("has no size line without executables", () => {
    expect(renderMarkdown(results({ baseline: undefined, "core-plugin": undefined }))).not.toContain(
      "Executable sizes",
    );
  });
});
