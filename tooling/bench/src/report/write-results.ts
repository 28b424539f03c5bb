import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchResults } from "../results.js";
import { renderMarkdown } from "./markdown.js";
import { renderRatioChart } from "./svg.js";

/** The files one run writes. */
export interface WrittenResults {
  json: string;
  markdown: string;
  svg: string;
}

/** Writes results.json, results.md and ratios.svg into `dir` (created if missing). */
export function writeResults(results: BenchResults, dir: string): WrittenResults {
  mkdirSync(dir, { recursive: true });
  const written = {
    json: join(dir, "results.json"),
    markdown: join(dir, "results.md"),
    svg: join(dir, "ratios.svg"),
  };
  writeFileSync(written.json, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(written.markdown, renderMarkdown(results));
  writeFileSync(written.svg, renderRatioChart(results));
  return written;
}
