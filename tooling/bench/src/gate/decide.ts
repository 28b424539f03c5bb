import { summarize } from "../stats.js";

/** The ratios the gate holds the default binary to, each default binary ÷ hand-written baseline (lower is better). */
export const GATE_RATIOS = ["first_invoke", "first_burst_cpu", "first_burst_peak_rss"] as const;

/** One ratio the gate checks. */
export type GateRatio = (typeof GATE_RATIOS)[number];

/** What each ratio compares, for the table. */
export const GATE_RATIO_LABELS: Readonly<Record<GateRatio, string>> = {
  first_invoke: "spawn → first invoke answered",
  first_burst_cpu: "first burst: CPU per invoke",
  first_burst_peak_rss: "first burst: peak RSS",
};

/** The committed budget of one ratio. */
export interface RatioBudget {
  /** The ratio (subject ÷ baseline, median of the paired runs) the binary is expected to have. */
  budget: number;
  /** The measured noise: the gate fails above `budget × (1 + band)`. */
  band: number;
}

/** Each ratio's medians of a machine's calibration runs. */
export type RatioMedians = Record<GateRatio, number[]>;

/** One machine's calibration of a runtime's budget. */
export interface GateCalibration {
  /** The commit calibrated on. */
  commit: string;
  /** ISO date of the calibration. */
  at: string;
  /** The binary gated, as the calibration found it (path, runtime, size). */
  binary: string;
  machine: string;
  /** Paired runs per calibration run, and how many calibration runs. */
  runs: number;
  calibrations: number;
  /** Calibration runs with one busy loop per core (absent: none). */
  loadedCalibrations?: number;
  burstCalls: number;
  /** Each ratio's median of each quiet calibration run. */
  quiet: RatioMedians;
  /** Each ratio's median of each run with every core busy. */
  loaded: RatioMedians;
}

/**
 * The budget of one runtime's binary: its calibrations, one per machine (CPU model) it was
 * calibrated on, and each ratio's budget and band taken from all of their medians, so the
 * gate holds on each of those machines (the ratios differ between CPU families).
 */
export interface GateBudget {
  measured: GateCalibration[];
  ratios: Record<GateRatio, RatioBudget>;
}

/**
 * The budget after `calibration`: it replaces an earlier calibration on the same machine
 * and joins those of other machines; every ratio is calibrated anew from all their medians.
 */
export function withCalibration(previous: GateBudget | undefined, calibration: GateCalibration): GateBudget {
  const others = (previous?.measured ?? []).filter((earlier) => earlier.machine !== calibration.machine);
  const measured = [...others, calibration];
  const pooled = (ratio: GateRatio, kind: "quiet" | "loaded") => measured.flatMap((m) => m[kind][ratio]);
  const ratios = Object.fromEntries(
    GATE_RATIOS.map((ratio) => [ratio, calibrateRatio(pooled(ratio, "quiet"), pooled(ratio, "loaded"))]),
  ) as Record<GateRatio, RatioBudget>;
  return { measured, ratios };
}

/** One fresh process's figures that the gate compares. */
export interface GateRun {
  firstInvokeMs: number;
  cpuPerInvokeUs?: number;
  /** The main thread's part of `cpuPerInvokeUs` (see `ContactRun`). */
  mainThreadCpuPerInvokeUs?: number;
  peakRssBytes?: number;
}

/** A subject's run and the baseline's run measured next to it. */
export interface GatePair {
  subject: GateRun;
  baseline: GateRun;
}

/** The value of a ratio in one run, undefined when that run could not measure it. */
function runValue(run: GateRun, ratio: GateRatio): number | undefined {
  if (ratio === "first_invoke") return run.firstInvokeMs;
  if (ratio === "first_burst_cpu") return run.cpuPerInvokeUs;
  return run.peakRssBytes;
}

/**
 * The median over the pairs of subject ÷ baseline, per ratio. Pairing each run with the
 * baseline run beside it cancels most of what the machine's load does to both; a ratio no
 * pair could measure (no procfs) is absent.
 */
export function pairedRatios(pairs: readonly GatePair[]): Partial<Record<GateRatio, number>> {
  const out: Partial<Record<GateRatio, number>> = {};
  for (const ratio of GATE_RATIOS) {
    const values: number[] = [];
    for (const { subject, baseline } of pairs) {
      const mine = runValue(subject, ratio);
      const theirs = runValue(baseline, ratio);
      if (mine !== undefined && theirs !== undefined && theirs > 0) values.push(mine / theirs);
    }
    if (values.length > 0) out[ratio] = summarize(values).median;
  }
  return out;
}

/** One side's first-burst CPU per invoke, µs: the median over the pairs of each part. */
export interface BurstCpuParts {
  /** All threads: what `first_burst_cpu` compares. */
  allThreadsUs: number;
  /** The main thread, which runs the plugin's code: the tool path. */
  mainThreadUs: number;
  /** The runtime's other threads: JIT compilers, GC helpers. */
  otherThreadsUs: number;
}

/**
 * Where each side's first-burst CPU went, main thread or the runtime's own threads, from
 * the pairs that could tell (schedstat); undefined when none could. Not judged: it says
 * whether a `first_burst_cpu` that moved is the plugin's code or its runtime's compiling.
 */
export function burstCpuParts(
  pairs: readonly GatePair[],
): { subject: BurstCpuParts; baseline: BurstCpuParts } | undefined {
  const split = pairs.filter(
    ({ subject, baseline }) =>
      subject.cpuPerInvokeUs !== undefined &&
      subject.mainThreadCpuPerInvokeUs !== undefined &&
      baseline.cpuPerInvokeUs !== undefined &&
      baseline.mainThreadCpuPerInvokeUs !== undefined,
  );
  if (split.length === 0) return undefined;
  const parts = (side: "subject" | "baseline"): BurstCpuParts => {
    const median = (part: (run: GateRun) => number) =>
      summarize(split.map((pair) => part(pair[side]))).median;
    return {
      allThreadsUs: median((run) => run.cpuPerInvokeUs!),
      mainThreadUs: median((run) => run.mainThreadCpuPerInvokeUs!),
      otherThreadsUs: median((run) => run.cpuPerInvokeUs! - run.mainThreadCpuPerInvokeUs!),
    };
  };
  return { subject: parts("subject"), baseline: parts("baseline") };
}

/** {@link burstCpuParts} as one line. */
export function renderBurstCpuParts(parts: { subject: BurstCpuParts; baseline: BurstCpuParts }): string {
  const side = (p: BurstCpuParts) =>
    `${p.allThreadsUs.toFixed(2)} (main thread ${p.mainThreadUs.toFixed(2)}, other threads ${p.otherThreadsUs.toFixed(2)})`;
  return `first burst CPU µs per invoke, medians: binary ${side(parts.subject)}, baseline ${side(parts.baseline)}`;
}

/** The gate's verdict on one ratio. */
export interface RatioVerdict {
  ratio: GateRatio;
  /** The measured median ratio; undefined when it could not be measured. */
  measured?: number;
  budget: number;
  band: number;
  /** `budget × (1 + band)`: the worst ratio that passes. */
  limit: number;
  verdict: "pass" | "fail" | "not measured";
}

/** The gate's verdict on a run: every ratio's, and whether all passed. */
export interface GateVerdict {
  ratios: RatioVerdict[];
  passed: boolean;
}

/**
 * Holds each measured ratio to its budget: it passes up to `budget × (1 + band)` and fails
 * above; a ratio that could not be measured fails (a gate that cannot see must not pass).
 */
export function decide(budget: GateBudget, measured: Partial<Record<GateRatio, number>>): GateVerdict {
  const ratios = GATE_RATIOS.map((ratio): RatioVerdict => {
    const { budget: value, band } = budget.ratios[ratio];
    const limit = value * (1 + band);
    const got = measured[ratio];
    if (got === undefined) return { ratio, budget: value, band, limit, verdict: "not measured" };
    return { ratio, measured: got, budget: value, band, limit, verdict: got <= limit ? "pass" : "fail" };
  });
  return { ratios, passed: ratios.every((r) => r.verdict === "pass") };
}

/** The smallest band a calibration may set: below it, a quiet machine's own drift fails the gate. */
export const MIN_BAND = 0.1;

/** How far past the calibration's own spread the band reaches. */
export const BAND_FACTOR = 2;

/**
 * A ratio's budget and band from the medians of several calibration runs on a quiet
 * machine and, when measured, of runs with every core kept busy by other processes: the
 * budget is the quiet medians' median; the band is {@link BAND_FACTOR} × the largest
 * relative distance of a median from it (quiet or loaded), at least {@link MIN_BAND}.
 * Load moves these ratios (a larger binary faults in more pages, more threads compete):
 * a band that covers it keeps a loaded CI machine from failing a sound build.
 */
export function calibrateRatio(medians: readonly number[], loaded: readonly number[] = []): RatioBudget {
  const budget = summarize(medians).median;
  const spread = Math.max(...[...medians, ...loaded].map((m) => Math.abs(m - budget) / budget));
  return { budget: round(budget), band: round(Math.max(MIN_BAND, BAND_FACTOR * spread)) };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** The committed budget file (`gate/budget.json`): a budget per runtime the default binary may be built with. */
export interface GateBudgetFile {
  /** How and when the budgets are measured, in words. */
  comment: string;
  /** By runtime: `node-sea`, `bun`, `bun-bytecode`. */
  budgets: Record<string, GateBudget>;
}

const CALIBRATE = "pnpm bench:gate --calibrate 5";

/** Throws unless `value` is a budget file whose every budget has its calibrations and each ratio's budget and band. */
export function parseBudgetFile(value: unknown, file: string): GateBudgetFile {
  const parsed = value as Partial<GateBudgetFile> | null;
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    typeof parsed.budgets !== "object" ||
    parsed.budgets === null
  ) {
    throw new Error(`GATE_BUDGET_INVALID: ${file} has no "budgets" object; re-measure it: ${CALIBRATE}`);
  }
  for (const [runtime, budget] of Object.entries(parsed.budgets)) parseBudget(budget, `${file} (${runtime})`);
  return parsed as GateBudgetFile;
}

/** The budget of a runtime; throws GATE_NO_BUDGET with the fix when the file has none for it. */
export function budgetFor(budgets: GateBudgetFile, runtime: string, file: string): GateBudget {
  const budget = budgets.budgets[runtime];
  if (budget) return budget;
  const known = Object.keys(budgets.budgets).join(", ") || "none";
  throw new Error(
    `GATE_NO_BUDGET: ${file} has no budget for a ${runtime} binary (it has: ${known}); measure one on a quiet machine: ${CALIBRATE}`,
  );
}

/** Throws unless `value` is one runtime's budget with its calibrations and every ratio's budget and band. */
export function parseBudget(value: unknown, file: string): GateBudget {
  const budget = value as Partial<GateBudget> | null;
  const fix = `re-measure it: ${CALIBRATE} (writes ${file})`;
  if (typeof budget !== "object" || budget === null || typeof budget.ratios !== "object") {
    throw new Error(`GATE_BUDGET_INVALID: ${file} has no "ratios" object; ${fix}`);
  }
  if (!Array.isArray(budget.measured) || budget.measured.length === 0) {
    throw new Error(`GATE_BUDGET_INVALID: ${file} has no "measured" list of calibrations; ${fix}`);
  }
  for (const ratio of GATE_RATIOS) {
    const entry = budget.ratios[ratio] as Partial<RatioBudget> | undefined;
    const ok =
      entry !== undefined &&
      typeof entry.budget === "number" &&
      entry.budget > 0 &&
      typeof entry.band === "number" &&
      entry.band >= 0;
    if (!ok)
      throw new Error(`GATE_BUDGET_INVALID: ${file}: ratios.${ratio} needs budget > 0 and band ≥ 0; ${fix}`);
  }
  return budget as GateBudget;
}

/** The verdict as a table (plain text, aligned), then what to do when it failed. */
export function renderVerdict(verdict: GateVerdict): string {
  const header = ["ratio (binary ÷ baseline)", "measured", "budget", "band", "limit", "verdict"];
  const rows = verdict.ratios.map((r) => [
    `${GATE_RATIO_LABELS[r.ratio]} (${r.ratio})`,
    r.measured === undefined ? "—" : r.measured.toFixed(3),
    r.budget.toFixed(3),
    `±${Math.round(r.band * 100)} %`,
    r.limit.toFixed(3),
    r.verdict === "pass" ? "pass" : r.verdict === "fail" ? "FAIL" : "FAIL (not measured)",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  const out = [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
  if (!verdict.passed) out.push("", ...failureAdvice(verdict));
  return out.join("\n");
}

/** What to do about a failed gate, for the ratios that failed. */
function failureAdvice(verdict: GateVerdict): string[] {
  const failed = verdict.ratios.filter((r) => r.verdict !== "pass").map((r) => r.ratio);
  const advice = [
    `GATE_REGRESSION: ${failed.join(", ")} worse than budget × (1 + band).`,
    "What to do:",
    "  1. Run it again (pnpm bench:gate); a loaded machine can push one run past its band.",
    "  2. If it fails again, find the change: pnpm bench:gate --binary <a build of the previous commit> gives its ratios;",
    "     for first_burst_cpu, the logged CPU split says whether the main thread (the plugin's code) or the runtime's",
    "     other threads (JIT compilers, GC) spent it;",
    "     node tooling/bench/dist/cli.js --fast --only first-contact shows every fresh-process figure.",
    "  3. If the change is meant to cost this (a new runtime, a new default), re-measure the budget on a quiet machine:",
    "     pnpm bench:gate --calibrate 5, and commit tooling/bench/gate/budget.json with the reason.",
  ];
  if (verdict.ratios.some((r) => r.verdict === "not measured")) {
    advice.push("  (not measured: CPU and RSS are read from /proc; the gate runs on Linux.)");
  }
  return advice;
}

/** The budget file's text: two-space JSON with each calibration list on one line (as the formatter keeps it). */
export function formatBudget(budget: GateBudgetFile): string {
  const text = JSON.stringify(budget, null, 2).replace(
    /\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]/g,
    (_, items: string) => `[${items.split(/,\s*/).join(", ")}]`,
  );
  return `${text}\n`;
}
