import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { cpus } from "node:os";
import { isAbsolute, relative } from "node:path";
import type { BenchConfig } from "./config.js";
import { measureColdStart } from "./figures/cold-start.js";
import { measureFirstContact } from "./figures/first-contact.js";
import { measureIdleRss } from "./figures/idle-rss.js";
import { measureLatency, measureThroughput } from "./figures/invoke-rate.js";
import { measureDataset, measureLargeArgument } from "./figures/payload.js";
import { measureValidation } from "./figures/validation.js";
import { runMcpComparison } from "./mcp/mcp-comparison.js";
import { probeSubject, type SubjectTools } from "./probe.js";
import { computeRatios } from "./ratios.js";
import type { BenchResults, SubjectFigures, SubjectRecord } from "./results.js";
import {
  type BenchPaths,
  benchPaths,
  discoverSubjects,
  type SkippedSubject,
  type Subject,
} from "./subjects.js";

/** Options of one bench run. */
export interface RunOptions {
  config: BenchConfig;
  /**
   * Measure only these subject ids (the baseline is always kept), and — when it names any
   * of {@link FIGURE_NAMES} — only those figures (`mcp` for the MCP figures).
   */
  only?: readonly string[];
  /** More SDK subjects to measure, e.g. a plugin on a local copy of core under change. */
  extra?: readonly Subject[];
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  paths?: BenchPaths;
}

/**
 * Runs every figure on every subject that can be measured and returns the figures and
 * their ratios to the baseline. Subjects that cannot serve (not built, wrong tools) are
 * listed as skipped, with the reason; a baseline that cannot serve is an error.
 */
export async function runBench(options: RunOptions): Promise<BenchResults> {
  const { config } = options;
  const log = options.log ?? (() => {});
  const started = Date.now();
  const paths = options.paths ?? benchPaths();
  const discovered = discoverSubjects(paths);
  const probed = await probeSubjects(wantedSubjects(options, discovered.subjects));
  const { subjects, tools } = probed;
  const skipped = [...discovered.skipped, ...probed.skipped];
  const figures: Record<string, SubjectFigures> = Object.fromEntries(
    subjects.map((subject) => [subject.id, {}]),
  );
  log(`subjects: ${subjects.map((subject) => subject.id).join(", ")}`);
  for (const skip of skipped) log(`skipped ${skip.id}: ${skip.reason}`);
  const serving = subjects.filter((subject) => subject.serves && !subject.validationOnly);
  const run: FigureRun = { config, subjects, serving, tools, figures, log };
  for (const [name, measure] of FIGURE_STEPS) {
    if (wantsFigure(options.only, name)) await measure(run);
  }
  const mcp = wantsMcp(options.only)
    ? await runMcpComparison({ config, paths, log, shown: (part) => shown(part, paths.repoRoot) })
    : undefined;
  return {
    schema: 1,
    mode: config.mode,
    startedAt: new Date(started).toISOString(),
    durationS: Math.round((Date.now() - started) / 100) / 10,
    environment: environment(paths.repoRoot),
    config,
    subjects: subjects.map((subject) => record(subject, paths.repoRoot)),
    skipped,
    figures,
    ratios: computeRatios(subjects, figures),
    ...(mcp ? { mcp } : {}),
  };
}

/** The MCP figures are measured unless `--only` leaves them out (by not naming `mcp`). */
function wantsMcp(only: readonly string[] | undefined): boolean {
  return only === undefined || only.includes("mcp");
}

/** Whether `--only` keeps a figure: it does unless it names figures and not this one. */
function wantsFigure(only: readonly string[] | undefined, name: FigureName): boolean {
  const named = only?.filter((id) => (FIGURE_NAMES as readonly string[]).includes(id)) ?? [];
  return named.length === 0 || named.includes(name);
}

/** The discovered subjects the run asked for (the baseline always), then its extra ones. */
function wantedSubjects(options: RunOptions, discovered: readonly Subject[]): Subject[] {
  // Figure names select figures, not subjects; `mcp` names no subject here, so `--only mcp` keeps the baseline alone.
  const only = options.only?.filter((id) => !(FIGURE_NAMES as readonly string[]).includes(id));
  const all = only === undefined || only.length === 0;
  return [
    ...discovered.filter((subject) => all || subject.role === "baseline" || only.includes(subject.id)),
    ...(options.extra ?? []),
  ];
}

/**
 * Asks each serving subject for its tools: those that answer are measured, the others
 * skipped with the reason (a baseline that does not answer fails the run).
 */
async function probeSubjects(wanted: readonly Subject[]): Promise<{
  subjects: Subject[];
  tools: Map<string, SubjectTools>;
  skipped: SkippedSubject[];
}> {
  const subjects: Subject[] = [];
  const tools = new Map<string, SubjectTools>();
  const skipped: SkippedSubject[] = [];
  for (const subject of wanted) {
    if (!subject.serves) {
      subjects.push(subject);
      continue;
    }
    try {
      tools.set(subject.id, await probeSubject(subject));
      subjects.push(subject);
    } catch (error) {
      if (subject.role === "baseline") throw error;
      skipped.push({ id: subject.id, label: subject.label, reason: (error as Error).message });
    }
  }
  return { subjects, tools, skipped };
}

/** What a figure step measures on and where it records. */
interface FigureRun {
  config: BenchConfig;
  subjects: readonly Subject[];
  /** The subjects that serve and are not there for the validation figure only. */
  serving: readonly Subject[];
  tools: ReadonlyMap<string, SubjectTools>;
  /** Subject id → its figures, filled in by the steps. */
  figures: Record<string, SubjectFigures>;
  log: (line: string) => void;
}

async function firstContactStep({ config, serving, figures, log }: FigureRun): Promise<void> {
  log(
    `first contact (fresh processes, no warm-up: describe + invoke, ${config.firstBurstCalls} pipelined, ${config.firstSequentialCalls} sequential, ${config.unreadRequests} describes unread)`,
  );
  const measured = await measureFirstContact(serving, {
    runs: config.firstContactRuns,
    burstCalls: config.firstBurstCalls,
    sequentialCalls: config.firstSequentialCalls,
    unreadRequests: config.unreadRequests,
    unreadHoldMs: config.unreadHoldMs,
    unreadRuns: config.unreadRuns,
  });
  for (const [id, firstContact] of measured) figures[id]!.firstContact = firstContact;
}

async function coldStartStep({ config, subjects, figures, log }: FigureRun): Promise<void> {
  log("cold start");
  const timed = subjects.filter((subject) => !subject.validationOnly);
  for (const [id, sample] of await measureColdStart(timed, config.coldStartRuns, config.warmups)) {
    figures[id]!.coldStartMs = sample;
  }
}

async function throughputStep({ config, serving, figures, log }: FigureRun): Promise<void> {
  log(`throughput (${config.throughputCalls} pipelined invokes)`);
  const throughput = await measureThroughput(serving, config.throughputCalls, config.runs, config.warmups);
  for (const [id, { perS, cpuPerInvokeUs }] of throughput) {
    figures[id]!.throughputPerS = perS;
    if (cpuPerInvokeUs) figures[id]!.cpuPerInvokeUs = cpuPerInvokeUs;
  }
}

async function latencyStep({ config, serving, figures, log }: FigureRun): Promise<void> {
  log(`latency (${config.latencyCalls} ping-pong invokes)`);
  const latency = await measureLatency(serving, config.latencyCalls, config.runs, config.warmups);
  for (const [id, { p50, p99 }] of latency) {
    figures[id]!.latencyP50Ms = p50;
    figures[id]!.latencyP99Ms = p99;
  }
}

async function largeArgumentStep({ config, serving, figures, log }: FigureRun): Promise<void> {
  log(`large argument (${config.largeFrameBytes} byte frame)`);
  const large = await measureLargeArgument(serving, config.largeFrameBytes, config.runs, config.warmups);
  for (const [id, figure] of large) figures[id]!.largeArgument = figure;
}

/** The dataset figure, on the subjects that have a generate_dataset tool with an integer parameter. */
async function datasetStep({ config, serving, tools, figures, log }: FigureRun): Promise<void> {
  const withDataset = serving.filter((subject) => tools.get(subject.id)?.datasetParam !== undefined);
  for (const subject of serving) {
    if (!withDataset.includes(subject))
      log(`${subject.id} has no generate_dataset(integer); no dataset figure`);
  }
  log(`dataset (${config.datasetRows} rows)`);
  const datasets = await measureDataset(
    withDataset,
    config.datasetRows,
    (subject) => tools.get(subject.id)!.datasetParam!,
    config.runs,
    config.warmups,
  );
  for (const [id, figure] of datasets) figures[id]!.dataset = figure;
}

/** The validation figure, on each subject that has a validated DTO tool and its unvalidated twin. */
async function validationStep({ config, subjects, tools, figures, log }: FigureRun): Promise<void> {
  for (const subject of subjects) {
    const pair = tools.get(subject.id)?.validation;
    if (!pair) continue;
    log(`validation on ${subject.id} (${pair.validated} vs ${pair.unchecked})`);
    figures[subject.id]!.validation = await measureValidation(
      subject,
      pair,
      config.validationCalls,
      config.runs,
      config.warmups,
    );
  }
}

async function idleRssStep({ config, serving, figures, log }: FigureRun): Promise<void> {
  log("idle RSS");
  for (const [id, { rss, anonRss }] of await measureIdleRss(serving, config.idleSettleMs, config.runs)) {
    figures[id]!.idleRssBytes = rss;
    if (anonRss) figures[id]!.idleAnonRssBytes = anonRss;
  }
}

/** The figures `--only` can select, in the order a run measures them. */
export const FIGURE_NAMES = [
  "first-contact",
  "cold-start",
  "throughput",
  "latency",
  "large-argument",
  "dataset",
  "validation",
  "idle-rss",
] as const;

/** The name of a figure of {@link FIGURE_NAMES}. */
export type FigureName = (typeof FIGURE_NAMES)[number];

/** The figures in the order a run measures them, each over every subject it applies to. */
const FIGURE_STEPS: readonly (readonly [FigureName, (run: FigureRun) => Promise<void>])[] = [
  ["first-contact", firstContactStep],
  ["cold-start", coldStartStep],
  ["throughput", throughputStep],
  ["latency", latencyStep],
  ["large-argument", largeArgumentStep],
  ["dataset", datasetStep],
  ["validation", validationStep],
  ["idle-rss", idleRssStep],
];

/** The machine and the code the run measured. */
function environment(repoRoot: string): BenchResults["environment"] {
  const cpuList = cpus();
  return {
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpus: cpuList.length,
    cpuModel: cpuList[0]?.model.trim() ?? "unknown",
    commit: gitCommit(repoRoot),
  };
}

/** A subject as the results record it, with the size of its executable unless node runs it. */
function record(subject: Subject, repoRoot: string): SubjectRecord {
  const recorded: SubjectRecord = {
    id: subject.id,
    label: subject.label,
    role: subject.role,
    command: [subject.line.command, ...subject.line.args].map((part) => shown(part, repoRoot)),
  };
  if (subject.line.command !== process.execPath) {
    const file = statSync(subject.line.command, { throwIfNoEntry: false });
    if (file?.isFile()) recorded.executableBytes = file.size;
  }
  return recorded;
}

/** A command-line part as the results show it: node as `node`, repository paths relative. */
function shown(part: string, repoRoot: string): string {
  if (part === process.execPath) return "node";
  if (isAbsolute(part) && !relative(repoRoot, part).startsWith("..")) return relative(repoRoot, part);
  return part;
}

/** The repository's HEAD commit, `+dirty` when tracked files have changes; undefined outside git. */
function gitCommit(repoRoot: string): string | undefined {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: repoRoot,
      encoding: "utf8",
    }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: repoRoot,
      encoding: "utf8",
    }).trim();
    return dirty === "" ? head : `${head}+dirty`;
  } catch {
    return undefined;
  }
}
