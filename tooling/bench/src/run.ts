import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { cpus } from "node:os";
import { isAbsolute, relative } from "node:path";
import type { BenchConfig } from "./config.js";
import { measureColdStart } from "./figures/cold-start.js";
import { measureIdleRss } from "./figures/idle-rss.js";
import { measureLatency, measureThroughput } from "./figures/invoke-rate.js";
import { measureDataset, measureLargeArgument } from "./figures/payload.js";
import { measureValidation } from "./figures/validation.js";
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
  /** Measure only these subject ids (the baseline is always kept). */
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
  const skipped: SkippedSubject[] = [...discovered.skipped];
  const wanted = [
    ...discovered.subjects.filter(
      (subject) => !options.only || subject.role === "baseline" || options.only.includes(subject.id),
    ),
    ...(options.extra ?? []),
  ];

  const tools = new Map<string, SubjectTools>();
  const subjects: Subject[] = [];
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
  const serving = subjects.filter((subject) => subject.serves && !subject.validationOnly);
  const figures: Record<string, SubjectFigures> = Object.fromEntries(
    subjects.map((subject) => [subject.id, {}]),
  );
  log(`subjects: ${subjects.map((subject) => subject.id).join(", ")}`);
  for (const skip of skipped) log(`skipped ${skip.id}: ${skip.reason}`);

  log("cold start");
  const timed = subjects.filter((subject) => !subject.validationOnly);
  for (const [id, sample] of await measureColdStart(timed, config.coldStartRuns, config.warmups)) {
    figures[id]!.coldStartMs = sample;
  }

  log(`throughput (${config.throughputCalls} pipelined invokes)`);
  const throughput = await measureThroughput(serving, config.throughputCalls, config.runs, config.warmups);
  for (const [id, { perS, cpuPerInvokeUs }] of throughput) {
    figures[id]!.throughputPerS = perS;
    if (cpuPerInvokeUs) figures[id]!.cpuPerInvokeUs = cpuPerInvokeUs;
  }

  log(`latency (${config.latencyCalls} ping-pong invokes)`);
  for (const [id, { p50, p99 }] of await measureLatency(
    serving,
    config.latencyCalls,
    config.runs,
    config.warmups,
  )) {
    figures[id]!.latencyP50Ms = p50;
    figures[id]!.latencyP99Ms = p99;
  }

  log(`large argument (${config.largeFrameBytes} byte frame)`);
  for (const [id, figure] of await measureLargeArgument(
    serving,
    config.largeFrameBytes,
    config.runs,
    config.warmups,
  )) {
    figures[id]!.largeArgument = figure;
  }

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

  log("idle RSS");
  for (const [id, { rss, anonRss }] of await measureIdleRss(serving, config.idleSettleMs, config.runs)) {
    figures[id]!.idleRssBytes = rss;
    if (anonRss) figures[id]!.idleAnonRssBytes = anonRss;
  }

  const cpuList = cpus();
  return {
    schema: 1,
    mode: config.mode,
    startedAt: new Date(started).toISOString(),
    durationS: Math.round((Date.now() - started) / 100) / 10,
    environment: {
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      cpus: cpuList.length,
      cpuModel: cpuList[0]?.model.trim() ?? "unknown",
      commit: gitCommit(paths.repoRoot),
    },
    config,
    subjects: subjects.map((subject) => record(subject, paths.repoRoot)),
    skipped,
    figures,
    ratios: computeRatios(subjects, figures),
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
