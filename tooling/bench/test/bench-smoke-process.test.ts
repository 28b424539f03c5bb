import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchConfig } from "../src/config.js";
import { rowCount } from "../src/figures/payload.js";
import { renderMarkdown } from "../src/report/markdown.js";
import { renderRatioChart } from "../src/report/svg.js";
import { writeResults } from "../src/report/write-results.js";
import type { BenchResults } from "../src/results.js";
import { runBench } from "../src/run.js";
import { percentile, summarize } from "../src/stats.js";
import { benchPaths } from "../src/subjects.js";

// Smoke mode: tiny sizes, one run. It proves every figure still runs end to end against
// real processes; it asserts nothing about time.
describe("bench smoke run", () => {
  let results: BenchResults;
  let out: string;

  beforeAll(async () => {
    const core = join(benchPaths().repoRoot, "packages", "core", "dist", "index.js");
    if (!existsSync(core)) throw new Error(`build @executa/core first (${core} is missing)`);
    out = mkdtempSync(join(tmpdir(), "bench-smoke-"));
    // The toolbox artifacts have their own tests; here they would only add time.
    results = await runBench({ config: benchConfig("smoke"), only: ["core-plugin", "floor"] });
  }, 120_000);

  afterAll(() => {
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it("measures the baseline, the core plugin and the floor", () => {
    const ids = results.subjects.map((subject) => subject.id);
    expect(ids).toEqual(["baseline", "core-plugin", "floor"]);
    expect(results.skipped.map((skip) => skip.id)).not.toContain("core-plugin");
  });

  it("has every figure for the baseline and the core plugin", () => {
    for (const id of ["baseline", "core-plugin"]) {
      const figures = results.figures[id]!;
      for (const sample of [
        figures.coldStartMs,
        figures.throughputPerS,
        figures.latencyP50Ms,
        figures.latencyP99Ms,
        figures.largeArgument?.timeMs,
        figures.dataset?.timeMs,
      ]) {
        expect(sample?.median).toBeGreaterThan(0);
      }
      expect(figures.largeArgument?.fileTransport).toBe(true);
      expect(figures.dataset?.fileTransport).toBe(true);
      if (process.platform === "linux") {
        expect(figures.idleRssBytes?.median).toBeGreaterThan(1024 * 1024);
        expect(figures.dataset?.peakRssBytes?.median).toBeGreaterThanOrEqual(figures.idleRssBytes!.min);
      }
    }
    expect(results.figures.floor?.coldStartMs?.median).toBeGreaterThan(0);
    expect(results.figures.floor?.throughputPerS).toBeUndefined();
  });

  it("has the first-contact figures of fresh processes for the baseline and the core plugin", () => {
    for (const id of ["baseline", "core-plugin"]) {
      const first = results.figures[id]?.firstContact;
      for (const sample of [
        first?.describeMs,
        first?.firstInvokeMs,
        first?.burstPerS,
        first?.sequentialP50Ms,
        first?.sequentialP99Ms,
      ]) {
        expect(sample?.median).toBeGreaterThan(0);
      }
      expect(first!.firstInvokeMs.median).toBeGreaterThanOrEqual(first!.describeMs.median);
      if (process.platform === "linux") {
        expect(first?.burstCpuPerInvokeUs?.median).toBeGreaterThan(0);
        expect(first?.burstPeakRssBytes?.median).toBeGreaterThan(1024 * 1024);
        expect(typeof first?.unreadRssGrowthBytes?.median).toBe("number");
      }
    }
    expect(results.figures.floor?.firstContact).toBeUndefined();
    const firstInvoke = results.ratios.find(
      (r) => r.subject === "core-plugin" && r.metric === "first_invoke",
    );
    expect(firstInvoke?.target).toEqual({ op: "<=", value: 0.4 });
    const markdown = renderMarkdown(results);
    expect(markdown.indexOf("## First contact (fresh process, no warm-up)")).toBeGreaterThan(0);
    expect(markdown.indexOf("## First contact")).toBeLessThan(markdown.indexOf("## Figures"));
    expect(renderRatioChart(results)).toContain(
      "first contact, fresh process: spawn → first invoke answered",
    );
  });

  it("measures validation on the core plugin's DTO pair", () => {
    const validation = results.figures["core-plugin"]?.validation;
    expect(validation?.validatedTool).toBe("save_contact");
    expect(validation?.overhead).toBeGreaterThan(0);
  });

  it("computes ratios with target verdicts for SDK subjects only", () => {
    const cold = results.ratios.find((r) => r.subject === "core-plugin" && r.metric === "cold_start");
    expect(cold?.target).toEqual({ op: "<=", value: 1 });
    expect(typeof cold?.met).toBe("boolean");
    const floor = results.ratios.find((r) => r.subject === "floor" && r.metric === "cold_start");
    expect(floor?.target).toBeUndefined();
    for (const ratio of results.ratios) expect(Number.isFinite(ratio.ratio)).toBe(true);
    expect(results.ratios.filter((r) => r.subject === "core-plugin").map((r) => r.metric)).toEqual(
      expect.arrayContaining(["cold_start", "throughput", "latency_p99", "idle_rss"]),
    );
  });

  it("renders the markdown table, the SVG chart and the JSON", () => {
    const markdown = renderMarkdown(results);
    expect(markdown).toContain("| Figure | baseline (hand-written) |");
    expect(markdown).toContain("## Ratios to the baseline");
    const svg = renderRatioChart(results);
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    expect(svg.match(/<rect [^>]*fill="#(2e7d32|c62828|78909c)"/g)).toHaveLength(results.ratios.length);

    const written = writeResults(results, out);
    expect(JSON.parse(readFileSync(written.json, "utf8"))).toEqual(JSON.parse(JSON.stringify(results)));
    expect(readFileSync(written.markdown, "utf8")).toBe(markdown);
    expect(readFileSync(written.svg, "utf8")).toBe(svg);
  });
});

describe("bench statistics", () => {
  it("summarizes runs as median, min and max", () => {
    expect(summarize([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5, values: [5, 1, 3] });
    expect(summarize([4, 1, 3, 2]).median).toBe(2.5);
    expect(() => summarize([])).toThrow(RangeError);
  });

  it("takes nearest-rank percentiles", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(() => percentile(values, 101)).toThrow(RangeError);
  });

  it("counts dataset rows in the answer's longest array", () => {
    expect(rowCount([1, 2, 3])).toBe(3);
    expect(rowCount({ columns: ["id", "name"], dataset: [{}, {}, {}] })).toBe(3);
    expect(rowCount({ rows: 3 })).toBeUndefined();
  });

  it("rejects a config without runs", () => {
    expect(() => benchConfig("fast", { runs: 0 })).toThrow(/runs/);
  });
});
