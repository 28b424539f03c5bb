import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchConfig } from "../src/config.js";
import { computeMcpRatios, runMcpComparison } from "../src/mcp/mcp-comparison.js";
import { discoverMcpSubjects } from "../src/mcp/mcp-subjects.js";
import { mcpSection } from "../src/report/mcp-markdown.js";
import type { BenchResults, McpComparison } from "../src/results.js";
import { benchPaths } from "../src/subjects.js";

// The MCP figures in smoke mode, against real processes: the official SDK server and the
// plugin on core (built dist) serving MCP. Nothing is asserted about time.
describe("MCP figures (smoke)", () => {
  let mcp: McpComparison;
  beforeAll(async () => {
    mcp = await runMcpComparison({
      config: benchConfig("smoke"),
      paths: benchPaths(),
      log: () => {},
      shown: (part) => part,
    });
  }, 120_000);

  it("measures the SDK server as the reference and the plugin on core beside it", () => {
    const ids = mcp.subjects.map((subject) => subject.id);
    expect(ids[0]).toBe("mcp-sdk");
    expect(ids).toContain("core-plugin");
    expect(mcp.subjects.find((subject) => subject.id === "core-plugin")?.command.at(-1)).toBe("--mcp");
    expect(mcp.versions?.sdk).toMatch(/^\d+\.\d+\.\d+/);
    for (const id of ["mcp-sdk", "core-plugin"]) {
      expect(mcp.figures[id]?.coldStartMs?.median).toBeGreaterThan(0);
      expect(mcp.figures[id]?.throughputPerS?.median).toBeGreaterThan(0);
    }
  });

  it("takes every ratio to the reference", () => {
    const cold = mcp.ratios.find((r) => r.subject === "core-plugin" && r.metric === "mcp_cold_start");
    expect(cold?.ratio).toBeCloseTo(
      mcp.figures["core-plugin"]!.coldStartMs!.median / mcp.figures["mcp-sdk"]!.coldStartMs!.median,
    );
    expect(mcp.ratios.some((r) => r.subject === "mcp-sdk")).toBe(false);
  });

  it("renders its section of the report", () => {
    const text = mcpSection({ config: benchConfig("smoke"), mcp } as BenchResults).join("\n");
    expect(text).toContain("## MCP: the same tool on the official MCP SDK server (same run)");
    expect(text).toContain("| tools/call throughput ÷ SDK server (higher is better) | 1.00 |");
  });
});

describe("MCP subjects and ratios", () => {
  const empty = mkdtempSync(join(tmpdir(), "bench-mcp-"));
  // A bench folder without built subjects (the Bun builds live under it) that still
  // resolves the SDK and zod the reference needs.
  const benchDir = mkdtempSync(join(tmpdir(), "bench-mcp-dir-"));
  symlinkSync(join(benchPaths().benchDir, "node_modules"), join(benchDir, "node_modules"), "junction");
  afterAll(() => {
    rmSync(empty, { recursive: true, force: true });
    rmSync(benchDir, { recursive: true, force: true });
  });

  it("lists the artifacts that are not built as not measured, with the file they need", () => {
    const { subjects, skipped } = discoverMcpSubjects({ benchDir, repoRoot: empty });
    expect(subjects.map((subject) => subject.id)).toEqual(["mcp-sdk"]);
    expect(skipped.find((skip) => skip.id === "toolbox-node")?.reason).toMatch(/toolbox\.cjs not built/);
  });

  it("has no ratio without the reference's figure", () => {
    const sample = { median: 2, min: 2, max: 2, values: [2] };
    expect(computeMcpRatios("mcp-sdk", { a: { coldStartMs: sample } })).toEqual([]);
    expect(
      computeMcpRatios("mcp-sdk", {
        "mcp-sdk": { coldStartMs: sample },
        a: { coldStartMs: { ...sample, median: 1 } },
      }),
    ).toEqual([{ subject: "a", metric: "mcp_cold_start", ratio: 0.5 }]);
  });
});
