import type { BenchConfig } from "../config.js";
import { measureThroughput } from "../figures/invoke-rate.js";
import { sampleRotated } from "../figures/schedule.js";
import type { McpComparison, McpEraFigures, McpSubjectFigures, McpSubjectRecord, Ratio } from "../results.js";
import type { BenchPaths, SkippedSubject } from "../subjects.js";
import { coldStartOnce, MCP_ERAS, type McpEra, mcpCallBursts } from "./mcp-figures.js";
import { checkHttpServes, HTTP_CONCURRENCY, measureHttpThroughput } from "./mcp-http.js";
import { discoverMcpSubjects, MCP_REFERENCE_ID, type McpSubject } from "./mcp-subjects.js";

/** A figure of the MCP comparison in one era, taken as a ratio to the reference. */
export interface McpMetric {
  /** `mcp_<era>_<figure>`. */
  key: string;
  era: McpEra;
  label: string;
  better: "lower" | "higher";
  value: (figures: McpEraFigures) => number | undefined;
}

type EraMetric = Omit<McpMetric, "key" | "era"> & { name: string };

const ERA_METRICS: readonly EraMetric[] = [
  { name: "cold_start", label: "cold start", better: "lower", value: (f) => f.coldStartMs?.median },
  {
    name: "throughput",
    label: "stdio tools/call throughput",
    better: "higher",
    value: (f) => f.throughputPerS?.median,
  },
  {
    name: "cpu_per_call",
    label: "stdio CPU per tools/call",
    better: "lower",
    value: (f) => f.cpuPerCallUs?.median,
  },
  {
    name: "http_throughput",
    label: "HTTP tools/call throughput",
    better: "higher",
    value: (f) => f.httpThroughputPerS?.median,
  },
  {
    name: "http_cpu_per_call",
    label: "HTTP CPU per tools/call",
    better: "lower",
    value: (f) => f.httpCpuPerCallUs?.median,
  },
];

/** The MCP metrics, in table order: each figure in the legacy era, then in the modern one. */
export const MCP_METRICS: readonly McpMetric[] = MCP_ERAS.flatMap((era) =>
  ERA_METRICS.map(({ name, ...metric }) => ({ ...metric, era, key: `mcp_${era}_${name}` })),
);

/** Every ratio subject / reference that both sides measured (no targets: the issue sets none). */
export function computeMcpRatios(reference: string, figures: Record<string, McpSubjectFigures>): Ratio[] {
  const base = figures[reference];
  if (!base) return [];
  const ratios: Ratio[] = [];
  for (const [id, own] of Object.entries(figures)) {
    if (id === reference) continue;
    for (const m of MCP_METRICS) {
      const mine = own[m.era] && m.value(own[m.era]!);
      const theirs = base[m.era] && m.value(base[m.era]!);
      if (mine === undefined || theirs === undefined || theirs === 0) continue;
      ratios.push({ subject: id, metric: m.key, ratio: mine / theirs });
    }
  }
  return ratios;
}

/** Options of {@link runMcpComparison}. */
export interface McpRunOptions {
  config: BenchConfig;
  paths: BenchPaths;
  log: (line: string) => void;
  /** How a command-line part is recorded (node as `node`, repository paths relative). */
  shown: (part: string) => string;
}

/** Calls per HTTP burst: a tenth of the stdio bursts (each is a request over a socket), at least 20. */
export function httpCalls(config: BenchConfig): number {
  return Math.max(20, Math.round(config.throughputCalls / 10));
}

/**
 * The MCP figures, in each era: cold start and pipelined `tools/call` throughput over
 * stdio of each subject that serves MCP, and `tools/call` throughput over Streamable HTTP
 * of those that serve it, beside the official SDK v2 server with the same tool, in the same
 * run, with their ratios to it. A subject that fails to serve is skipped with the reason;
 * without the reference, nothing is measured.
 */
export async function runMcpComparison(options: McpRunOptions): Promise<McpComparison> {
  const { config, log } = options;
  const discovered = discoverMcpSubjects(options.paths);
  const subjects = await serving(discovered.subjects, discovered.skipped);
  const comparison: McpComparison = {
    reference: MCP_REFERENCE_ID,
    subjects: subjects.map((subject) => record(subject, options.shown)),
    skipped: discovered.skipped,
    figures: Object.fromEntries(subjects.map((subject) => [subject.id, {}])),
    ratios: [],
    httpConcurrency: HTTP_CONCURRENCY,
  };
  if (discovered.referenceVersions) comparison.versions = discovered.referenceVersions;
  for (const skip of discovered.skipped) log(`MCP: skipped ${skip.id}: ${skip.reason}`);
  if (subjects.length === 0) return comparison;
  for (const era of MCP_ERAS) {
    const speaking = subjects.filter((subject) => era === "legacy" || subject.modern);
    const measured = await measureEra(speaking, era, config, log);
    for (const [id, figures] of measured) comparison.figures[id]![era] = figures;
  }
  comparison.ratios = computeMcpRatios(comparison.reference, comparison.figures);
  return comparison;
}

/** Cold start, stdio throughput and HTTP throughput of `subjects` in one era, per subject id. */
async function measureEra(
  subjects: readonly McpSubject[],
  era: McpEra,
  config: BenchConfig,
  log: (line: string) => void,
): Promise<Map<string, McpEraFigures>> {
  const figures = new Map<string, McpEraFigures>(subjects.map((subject) => [subject.id, {}]));
  log(`MCP ${era}: cold start (${subjects.map((subject) => subject.id).join(", ")})`);
  const coldStarts = await sampleRotated(subjects, config.coldStartRuns, config.warmups, (subject) =>
    coldStartOnce(subject, era),
  );
  for (const [id, sample] of coldStarts) figures.get(id)!.coldStartMs = sample;
  log(`MCP ${era}: stdio throughput (${config.throughputCalls} pipelined tools/call)`);
  const stdio = await measureThroughput(
    subjects,
    config.throughputCalls,
    config.runs,
    config.warmups,
    mcpCallBursts(era),
  );
  for (const [id, { perS, cpuPerInvokeUs }] of stdio) {
    figures.get(id)!.throughputPerS = perS;
    if (cpuPerInvokeUs) figures.get(id)!.cpuPerCallUs = cpuPerInvokeUs;
  }
  const calls = httpCalls(config);
  log(`MCP ${era}: HTTP throughput (${calls} tools/call, ${HTTP_CONCURRENCY} in flight)`);
  const overHttp = subjects.filter((subject) => subject.http);
  const http = await measureHttpThroughput(overHttp, era, calls, config.runs, config.warmups);
  for (const [id, { perS, cpuPerInvokeUs }] of http) {
    figures.get(id)!.httpThroughputPerS = perS;
    if (cpuPerInvokeUs) figures.get(id)!.httpCpuPerCallUs = cpuPerInvokeUs;
  }
  return figures;
}

/**
 * The subjects that serve MCP (one cold start in each era they claim, one HTTP call in
 * each when they serve HTTP); the others go to `skipped` with the reason. Without the
 * reference, none is measured.
 */
async function serving(subjects: readonly McpSubject[], skipped: SkippedSubject[]): Promise<McpSubject[]> {
  const ok: McpSubject[] = [];
  for (const subject of subjects) {
    try {
      for (const era of MCP_ERAS) {
        if (era === "modern" && !subject.modern) continue;
        await coldStartOnce(subject, era);
        if (subject.http) await checkHttpServes(subject, era);
      }
      ok.push(subject);
    } catch (error) {
      skipped.push({ id: subject.id, label: subject.label, reason: (error as Error).message });
      if (subject.reference) return [];
    }
  }
  return ok;
}

function record(subject: McpSubject, shown: (part: string) => string): McpSubjectRecord {
  return {
    id: subject.id,
    label: subject.label,
    command: [subject.line.command, ...subject.line.args].map(shown),
    reference: subject.reference,
    modern: subject.modern,
    ...(subject.http && { http: [subject.http.command, ...subject.http.args].map(shown) }),
  };
}
