/**
 * `@executa/bench` — the Executa SDK measured side by side with a hand-written
 * baseline plugin. `pnpm bench` runs the CLI; tests call {@link runBench} in smoke mode.
 * @packageDocumentation
 */

export { type BenchConfig, type BenchMode, benchConfig } from "./config.js";
export { computeRatios, METRICS, type Metric } from "./ratios.js";
export { renderMarkdown } from "./report/markdown.js";
export { renderRatioChart } from "./report/svg.js";
export { type WrittenResults, writeResults } from "./report/write-results.js";
export type * from "./results.js";
export { type RunOptions, runBench } from "./run.js";
export { percentile, type Sample, summarize } from "./stats.js";
export { benchPaths, discoverSubjects, type Subject } from "./subjects.js";
