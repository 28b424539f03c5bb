import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { benchPaths } from "../subjects.js";
import { busyWaitBinary, defaultBinary, describeBinary } from "./binary.js";
import {
  budgetFor,
  burstCpuParts,
  decide,
  formatBudget,
  GATE_RATIOS,
  type GateBudget,
  type GateBudgetFile,
  type GateCalibration,
  type GateRatio,
  pairedRatios,
  parseBudgetFile,
  type RatioMedians,
  renderBurstCpuParts,
  renderVerdict,
  withCalibration,
} from "./decide.js";
import { cpuOf, thisMachine } from "./machine.js";
import { type GateSubjects, measurePairs } from "./measure.js";

const DEFAULT_RUNS = 80;
const DEFAULT_MAX_SECONDS = 150;
const DEFAULT_LOADED_CALIBRATIONS = 1;
/** Pairs measured whatever the deadline: fewer would make a median too coarse to judge. */
const MIN_RUNS = 20;
const DEFAULT_CALLS = 20_000;
const VARIANTS = ["busy-wait-50us"] as const;

const USAGE = `usage: pnpm bench:gate [--binary FILE | --variant busy-wait-50us] [--runs N] [--calls N]
                       [--max-seconds S] [--budget FILE] [--calibrate K [--calibrate-loaded L]]

Runs the toolbox's default binary against the hand-written baseline, interleaved, each run
a fresh process with no warm-up (spawn, describe + one invoke, then a first burst), and
fails (exit 1) when a ratio's median is worse than its committed budget × (1 + band).

  --binary FILE     gate this executable instead of apps/toolbox/dist/toolbox
  --variant busy-wait-50us
                    gate the toolbox built with a 50 µs busy-wait per invoke (build it first:
                    pnpm --filter @executa/bench build:busy-wait); the gate must fail on it
  --runs N          pairs of fresh processes (default ${DEFAULT_RUNS})
  --calls N         invokes of each first burst (default ${DEFAULT_CALLS})
  --max-seconds S   start no pair after S seconds once ${MIN_RUNS} are done (default ${DEFAULT_MAX_SECONDS}):
                    a loaded machine measures fewer pairs instead of running late
  --budget FILE     the budget file (default tooling/bench/gate/budget.json)
  --calibrate K     measure K times (each --runs pairs) and write the budget and band to
                    the budget file instead of judging; run it on a quiet machine
  --calibrate-loaded L
                    then measure L more times with one busy loop per core (default
                    ${DEFAULT_LOADED_CALIBRATIONS}; 0: none): the band also covers what load does to the ratios`;

/** The gate's options, read from the command line. */
interface GateOptions {
  binary: string;
  runs: number;
  calls: number;
  maxSeconds: number;
  budgetFile: string;
  calibrate?: number;
  /** Calibration runs measured with every core busy, after the quiet ones. */
  loadedCalibrations: number;
}

function positiveInteger(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} wants a positive integer, got "${value}"`);
  return n;
}

/** A wrong command line: exit 2 with the usage. */
class UsageError extends Error {}

/** Something to build or measure first: exit 2 with the fix, without the usage. */
class SetupError extends Error {}

function readOptions(argv: readonly string[]): GateOptions | undefined {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      binary: { type: "string" },
      variant: { type: "string" },
      runs: { type: "string" },
      calls: { type: "string" },
      "max-seconds": { type: "string" },
      budget: { type: "string" },
      calibrate: { type: "string" },
      "calibrate-loaded": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return undefined;
  const paths = benchPaths();
  if (values.binary && values.variant) throw new UsageError("--binary and --variant exclude each other");
  if (values.variant !== undefined && !(VARIANTS as readonly string[]).includes(values.variant)) {
    throw new UsageError(`--variant: unknown variant "${values.variant}" (known: ${VARIANTS.join(", ")})`);
  }
  const binary = values.variant
    ? busyWaitBinary(paths)
    : values.binary
      ? resolve(values.binary)
      : defaultBinary(paths);
  if (!existsSync(binary)) {
    const how = values.variant
      ? "pnpm --filter @executa/bench build:busy-wait"
      : "pnpm build (apps/toolbox builds the default binary)";
    throw new SetupError(`GATE_NO_BINARY: ${binary} does not exist; build it with ${how}`);
  }
  const options: GateOptions = {
    binary,
    runs: positiveInteger(values.runs, DEFAULT_RUNS, "--runs"),
    calls: positiveInteger(values.calls, DEFAULT_CALLS, "--calls"),
    maxSeconds: positiveInteger(values["max-seconds"], DEFAULT_MAX_SECONDS, "--max-seconds"),
    budgetFile: values.budget ? resolve(values.budget) : join(paths.benchDir, "gate", "budget.json"),
    loadedCalibrations:
      values["calibrate-loaded"] === "0"
        ? 0
        : positiveInteger(values["calibrate-loaded"], DEFAULT_LOADED_CALIBRATIONS, "--calibrate-loaded"),
  };
  if (values.calibrate !== undefined) options.calibrate = positiveInteger(values.calibrate, 0, "--calibrate");
  return options;
}

function log(line: string): void {
  process.stderr.write(`bench:gate: ${line}\n`);
}

/** One measurement: up to `runs` pairs, reduced to the median of each ratio over the pairs. */
async function measureOnce(
  subjects: GateSubjects,
  options: GateOptions,
  what: string,
): Promise<{ ratios: Partial<Record<GateRatio, number>>; pairs: number }> {
  const started = Date.now();
  const schedule = {
    runs: options.runs,
    burstCalls: options.calls,
    // A calibration measures every pair it was asked for.
    deadlineMs: options.calibrate === undefined ? options.maxSeconds * 1000 : Number.POSITIVE_INFINITY,
    minRuns: Math.min(options.runs, MIN_RUNS),
  };
  const pairs = await measurePairs(subjects, schedule, (done) => {
    if (done % 10 === 0 || done === options.runs) log(`${what}: ${done}/${options.runs} pairs`);
  });
  if (pairs.length < options.runs)
    log(`${what}: stopped after ${pairs.length} pairs (--max-seconds ${options.maxSeconds})`);
  const ratios = pairedRatios(pairs);
  log(
    `${what}: ${pairs.length} pairs in ${((Date.now() - started) / 1000).toFixed(1)} s; ${formatRatios(ratios)}`,
  );
  const cpuParts = burstCpuParts(pairs);
  if (cpuParts) log(`${what}: ${renderBurstCpuParts(cpuParts)}`);
  return { ratios, pairs: pairs.length };
}

function formatRatios(ratios: Partial<Record<GateRatio, number>>): string {
  return GATE_RATIOS.map((r) => `${r} ${ratios[r]?.toFixed(3) ?? "—"}`).join(", ");
}

/** HEAD, `+dirty` when tracked files have changes (the binary may hold work not committed yet). */
function gitCommit(repoRoot: string): string {
  const git = (args: string[]) => execFileSync("git", args, { cwd: repoRoot, encoding: "utf8" }).trim();
  try {
    const head = git(["rev-parse", "--short", "HEAD"]);
    return git(["status", "--porcelain", "--untracked-files=no"]) === "" ? head : `${head}+dirty`;
  } catch {
    return "unknown";
  }
}

const FILE_COMMENT =
  "Budgets of pnpm bench:gate, one per runtime the toolbox's default binary may be built with (the gate picks the one of the binary it runs). Each is written by pnpm bench:gate --calibrate K, once per machine (CPU model) it should hold on: `measured` lists each machine's calibration (commit, binary, machine, and each ratio's median of each calibration run, quiet and with one busy loop per core). Each ratio (binary ÷ hand-written baseline, median of `runs` paired fresh-process runs) has as budget the median of every machine's quiet medians, as band 2 × the largest relative distance from it of any median, quiet or loaded, at least 10 %. The gate fails above budget × (1 + band). Re-measure on a quiet machine when the default binary changes on purpose (calibrating again on a machine replaces that machine's medians).";

/** Runs `body` while one busy loop per core (child processes of the gate) competes with it. */
async function withBusyCores<T>(body: () => Promise<T>): Promise<T> {
  const loops = cpus().map(() => spawn(process.execPath, ["-e", "for (;;);"], { stdio: "ignore" }));
  try {
    return await body();
  } finally {
    for (const loop of loops) loop.kill("SIGKILL");
  }
}

/** The budget file as committed, or an empty one when it does not exist yet. */
function readBudgetFile(file: string): GateBudgetFile {
  if (!existsSync(file)) return { comment: FILE_COMMENT, budgets: {} };
  return parseBudgetFile(JSON.parse(readFileSync(file, "utf8")), file);
}

/** Each ratio's medians of the calibration runs, quiet and with every core busy. */
type CalibrationMedians = Pick<GateCalibration, "quiet" | "loaded">;

/** Measures `count` times, then `options.loadedCalibrations` times with every core busy. */
async function collectCalibration(
  subjects: GateSubjects,
  options: GateOptions,
  count: number,
): Promise<CalibrationMedians> {
  const empty = (): RatioMedians => ({
    first_invoke: [],
    first_burst_cpu: [],
    first_burst_peak_rss: [],
  });
  const medians: CalibrationMedians = { quiet: empty(), loaded: empty() };
  for (let i = 0; i < count + options.loadedCalibrations; i++) {
    const underLoad = i >= count;
    const what = underLoad
      ? `calibration under load ${i - count + 1}/${options.loadedCalibrations} (${cpus().length} busy loops)`
      : `calibration ${i + 1}/${count}`;
    const { ratios } = underLoad
      ? await withBusyCores(() => measureOnce(subjects, options, what))
      : await measureOnce(subjects, options, what);
    for (const r of GATE_RATIOS) {
      const value = ratios[r];
      if (value === undefined) {
        throw new SetupError(`GATE_NOT_MEASURED: ${r} cannot be measured here (no /proc)`);
      }
      medians[underLoad ? "loaded" : "quiet"][r].push(value);
    }
  }
  return medians;
}

/** Measures and writes the budget and band of each ratio for the binary's runtime. */
async function calibrate(subjects: GateSubjects, options: GateOptions, count: number, binary: Binary) {
  const paths = benchPaths();
  const { quiet, loaded } = await collectCalibration(subjects, options, count);
  const commit = gitCommit(paths.repoRoot);
  const calibration: GateCalibration = {
    commit,
    at: new Date().toISOString(),
    binary: binary.text,
    machine: thisMachine(),
    runs: options.runs,
    calibrations: count,
    loadedCalibrations: options.loadedCalibrations,
    burstCalls: options.calls,
    quiet,
    loaded,
  };
  const file = readBudgetFile(options.budgetFile);
  file.comment = FILE_COMMENT;
  const budget = withCalibration(file.budgets[binary.runtime.key], calibration);
  file.budgets[binary.runtime.key] = budget;
  writeFileSync(options.budgetFile, formatBudget(file));
  log(
    `wrote the ${binary.runtime.key} budget to ${relative(process.cwd(), options.budgetFile)} (commit ${commit})`,
  );
  for (const r of GATE_RATIOS) {
    log(`  ${r}: budget ${budget.ratios[r].budget}, band ±${Math.round(budget.ratios[r].band * 100)} %`);
  }
}

/** Where and when a budget was calibrated, machine by machine. */
function calibratedOn(budget: GateBudget): string {
  return budget.measured.map((m) => `${cpuOf(m.machine)} at ${m.commit}, ${m.at.slice(0, 10)}`).join("; ");
}

/** The binary gated: its runtime and how it is named. */
type Binary = ReturnType<typeof describeBinary>;

/** Measures, judges against the budget of the binary's runtime, prints the verdict; the exit code. */
async function judge(subjects: GateSubjects, options: GateOptions, binary: Binary): Promise<number> {
  if (!existsSync(options.budgetFile)) {
    throw new SetupError(
      `GATE_NO_BUDGET: ${options.budgetFile} does not exist; measure one on a quiet machine: pnpm bench:gate --calibrate 5`,
    );
  }
  let budget: GateBudget;
  try {
    budget = budgetFor(readBudgetFile(options.budgetFile), binary.runtime.key, options.budgetFile);
  } catch (error) {
    throw new SetupError((error as Error).message);
  }
  let measured = await measureOnce(subjects, options, "measured");
  let verdict = decide(budget, measured.ratios);
  if (!verdict.passed) {
    // One median over the limit can be the machine's noise (the medians of a steady binary
    // spread by ±5 % here); a regression is over it twice. The second measurement decides.
    log(`measured over the limit once: ${renderVerdict(verdict)}\nbench:gate: measuring again to confirm`);
    measured = await measureOnce(subjects, options, "confirmation");
    verdict = decide(budget, measured.ratios);
  }
  process.stdout.write(
    `\nbench:gate — ${binary.text} ÷ baseline, median of ${measured.pairs} paired fresh-process runs\n` +
      `budget: ${binary.runtime.key} in ${relative(process.cwd(), options.budgetFile)} (calibrated on ${calibratedOn(budget)})\n\n` +
      `${renderVerdict(verdict)}\n\n${verdict.passed ? "bench:gate: passed" : "bench:gate: FAILED"}\n`,
  );
  return verdict.passed ? 0 : 1;
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  if (!options) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const paths = benchPaths();
  const binary = describeBinary(options.binary, paths.repoRoot);
  const subjects: GateSubjects = {
    subject: { name: binary.text, line: { command: options.binary, args: [] } },
    baseline: {
      name: "baseline",
      line: { command: process.execPath, args: [join(paths.benchDir, "baseline", "plugin.cjs")] },
    },
  };
  log(
    `${binary.text} against the hand-written baseline: ${options.runs} pairs, first bursts of ${options.calls}`,
  );
  if (options.calibrate === undefined) return judge(subjects, options, binary);
  await calibrate(subjects, options, options.calibrate, binary);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof SetupError) {
      process.stderr.write(`bench:gate: ${error.message}\n`);
      process.exitCode = 2;
      return;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`bench:gate: ${error.message}\n\n${USAGE}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(
      `bench:gate: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 2;
  },
);
