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

// The MCP figures in smoke mode, against real processes: the official SDK v2 server (stdio
// and HTTP), the SDK v1 server and the plugin on core (built dist) serving MCP, in both eras.
// Nothing is asserted about time.
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

  it("measures the SDK v2 server as the reference, SDK v1 and the plugin on core beside it", () => {
    const ids = mcp.subjects.map((subject) => subject.id);
    expect(ids.slice(0, 2)).toEqual(["mcp-sdk-v2", "mcp-sdk-v1"]);
    expect(ids).toContain("core-plugin");
    expect(mcp.subjects.find((subject) => subject.id === "core-plugin")?.command.at(-1)).toBe("--mcp");
    expect(mcp.versions?.server).toMatch(/^2\.\d+\.\d+/);
    expect(mcp.versions?.sdk).toMatch(/^1\.\d+\.\d+/);
    for (const id of ["mcp-sdk-v2", "mcp-sdk-v1", "core-plugin"]) {
      expect(mcp.figures[id]?.legacy?.coldStartMs?.median).toBeGreaterThan(0);
      expect(mcp.figures[id]?.legacy?.throughputPerS?.median).toBeGreaterThan(0);
    }
    for (const id of ["mcp-sdk-v2", "core-plugin"]) {
      expect(mcp.figures[id]?.modern?.coldStartMs?.median).toBeGreaterThan(0);
      expect(mcp.figures[id]?.modern?.throughputPerS?.median).toBeGreaterThan(0);
    }
    expect(mcp.figures["mcp-sdk-v1"]?.modern).toBeUndefined();
  });

  it("measures HTTP throughput in both eras against the SDK v2 server over its Streamable HTTP handler", () => {
    const overHttp = mcp.subjects.filter((subject) => subject.http).map((subject) => subject.id);
    expect(overHttp[0]).toBe("mcp-sdk-v2");
    expect(overHttp).toContain("toolbox-node");
    for (const id of overHttp) {
      expect(mcp.figures[id]?.legacy?.httpThroughputPerS?.median).toBeGreaterThan(0);
      expect(mcp.figures[id]?.modern?.httpThroughputPerS?.median).toBeGreaterThan(0);
    }
  });

  it("takes every ratio to the reference", () => {
    const ratio = (era: "legacy" | "modern", key: string) =>
      mcp.ratios.find((r) => r.subject === "core-plugin" && r.metric === `mcp_${era}_${key}`)?.ratio;
    const figures = (id: string) => mcp.figures[id]!;
    expect(ratio("legacy", "cold_start")).toBeCloseTo(
      figures("core-plugin").legacy!.coldStartMs!.median / figures("mcp-sdk-v2").legacy!.coldStartMs!.median,
    );
    expect(ratio("modern", "throughput")).toBeCloseTo(
      figures("core-plugin").modern!.throughputPerS!.median /
        figures("mcp-sdk-v2").modern!.throughputPerS!.median,
    );
    expect(mcp.ratios.some((r) => r.subject === "mcp-sdk-v2")).toBe(false);
    expect(mcp.ratios.some((r) => r.subject === "mcp-sdk-v1" && r.metric.startsWith("mcp_modern_"))).toBe(
      false,
    );
  });

  it("renders its section of the report", () => {
    const text = mcpSection({ config: benchConfig("smoke"), mcp } as BenchResults).join("\n");
    expect(text).toContain("## MCP: the same tool on the official MCP SDK v2 server (same run)");
    expect(text).toContain(
      "| legacy: stdio tools/call throughput ÷ SDK v2 server (higher is better) | 1.00 |",
    );
    expect(text).toContain(
      "| modern: HTTP tools/call throughput ÷ SDK v2 server (higher is better) | 1.00 |",
    );
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
    expect(subjects.map((subject) => subject.id)).toEqual(["mcp-sdk-v2", "mcp-sdk-v1"]);
    expect(skipped.find((skip) => skip.id === "toolbox-node")?.reason).toMatch(/toolbox\.cjs not built/);
  });

  it("has no ratio without the reference's figure", () => {
    const sample = { median: 2, min: 2, max: 2, values: [2] };
    expect(computeMcpRatios("ref", { a: { legacy: { coldStartMs: sample } } })).toEqual([]);
    expect(
      computeMcpRatios("ref", {
        ref: { legacy: { coldStartMs: sample }, modern: { coldStartMs: sample } },
        a: { legacy: { coldStartMs: { ...sample, median: 1 } } },
      }),
    ).toEqual([{ subject: "a", metric: "mcp_legacy_cold_start", ratio: 0.5 }]);
  });
});
