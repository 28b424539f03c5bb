import type { BenchConfig } from "../config.js";
import { measureThroughput } from "../figures/invoke-rate.js";
import { sampleRotated } from "../figures/schedule.js";
import type { McpComparison, McpSubjectFigures, McpSubjectRecord, Ratio } from "../results.js";
import type { BenchPaths, SkippedSubject } from "../subjects.js";
import { coldStartOnce, MCP_CALL_BURSTS } from "./mcp-figures.js";
import { discoverMcpSubjects, MCP_REFERENCE_ID, type McpSubject } from "./mcp-subjects.js";

/** A figure of the MCP comparison, taken as a ratio to the reference. */
export interface McpMetric {
  key: string;
  label: string;
  better: "lower" | "higher";
  value: (figures: McpSubjectFigures) => number | undefined;
}

/** The MCP metrics, in table order. */
export const MCP_METRICS: readonly McpMetric[] = [
  { key: "mcp_cold_start", label: "cold start", better: "lower", value: (f) => f.coldStartMs?.median },
  {
    key: "mcp_throughput",
    label: "tools/call throughput",
    better: "higher",
    value: (f) => f.throughputPerS?.median,
  },
  {
    key: "mcp_cpu_per_call",
    label: "CPU per tools/call",
    better: "lower",
    value: (f) => f.cpuPerCallUs?.median,
  },
];

/** Every ratio subject / reference that both sides measured (no targets: the issue sets none). */
export function computeMcpRatios(reference: string, figures: Record<string, McpSubjectFigures>): Ratio[] {
  const base = figures[reference];
  if (!base) return [];
  const ratios: Ratio[] = [];
  for (const [id, own] of Object.entries(figures)) {
    if (id === reference) continue;
    for (const m of MCP_METRICS) {
      const mine = m.value(own);
      const theirs = m.value(base);
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

/**
 * The MCP figures: cold start and pipelined `tools/call` throughput of each subject that
 * serves MCP, and of the official SDK's server with the same tool, in the same run, with
 * their ratios to it. A subject that fails to serve is skipped with the reason; without
 * the reference, nothing is measured.
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
  };
  if (discovered.referenceVersions) comparison.versions = discovered.referenceVersions;
  for (const skip of discovered.skipped) log(`MCP: skipped ${skip.id}: ${skip.reason}`);
  if (subjects.length === 0) return comparison;
  log(`MCP cold start (${subjects.map((subject) => subject.id).join(", ")})`);
  const coldStarts = await sampleRotated(subjects, config.coldStartRuns, config.warmups, coldStartOnce);
  for (const [id, sample] of coldStarts) {
    comparison.figures[id]!.coldStartMs = sample;
  }
  log(`MCP throughput (${config.throughputCalls} pipelined tools/call)`);
  const throughput = await measureThroughput(
    subjects,
    config.throughputCalls,
    config.runs,
    config.warmups,
    MCP_CALL_BURSTS,
  );
  for (const [id, { perS, cpuPerInvokeUs }] of throughput) {
    comparison.figures[id]!.throughputPerS = perS;
    if (cpuPerInvokeUs) comparison.figures[id]!.cpuPerCallUs = cpuPerInvokeUs;
  }
  comparison.ratios = computeMcpRatios(comparison.reference, comparison.figures);
  return comparison;
}

/**
 * The subjects that serve MCP (one cold start each); the others go to `skipped` with the
 * reason. Without the reference, none is measured.
 */
async function serving(subjects: readonly McpSubject[], skipped: SkippedSubject[]): Promise<McpSubject[]> {
  const ok: McpSubject[] = [];
  for (const subject of subjects) {
    try {
      await coldStartOnce(subject);
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
  };
}
