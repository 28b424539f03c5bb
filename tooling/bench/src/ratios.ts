import type { Ratio, SubjectFigures } from "./results.js";
import type { Subject } from "./subjects.js";

/** A figure compared with the baseline. */
export interface Metric {
  key: string;
  label: string;
  /** `first-contact`: a new process's first moments, no warm-up; `steady`: the other figures. */
  group: "first-contact" | "steady";
  better: "lower" | "higher";
  value: (figures: SubjectFigures) => number | undefined;
  /** The target for the ratio subject / baseline, when it sets one. */
  target?: { op: "<=" | ">="; value: number };
}

/** The first-contact metrics, with the targets of "fast from the first call". */
const FIRST_CONTACT_METRICS: readonly Metric[] = [
  {
    key: "first_describe",
    label: "spawn → describe answered",
    group: "first-contact",
    better: "lower",
    value: (f) => f.firstContact?.describeMs.median,
  },
  {
    key: "first_invoke",
    label: "spawn → first invoke answered",
    group: "first-contact",
    better: "lower",
    value: (f) => f.firstContact?.firstInvokeMs.median,
    target: { op: "<=", value: 0.4 },
  },
  {
    key: "first_burst_throughput",
    label: "first burst throughput",
    group: "first-contact",
    better: "higher",
    value: (f) => f.firstContact?.burstPerS.median,
    target: { op: ">=", value: 1.0 },
  },
  {
    key: "first_burst_cpu",
    label: "first burst CPU per invoke",
    group: "first-contact",
    better: "lower",
    value: (f) => f.firstContact?.burstCpuPerInvokeUs?.median,
  },
  {
    key: "first_burst_peak_rss",
    label: "first burst peak RSS",
    group: "first-contact",
    better: "lower",
    value: (f) => f.firstContact?.burstPeakRssBytes?.median,
    target: { op: "<=", value: 1.2 },
  },
  {
    key: "first_sequential_p50",
    label: "first sequential invokes p50",
    group: "first-contact",
    better: "lower",
    value: (f) => f.firstContact?.sequentialP50Ms.median,
  },
  {
    key: "first_sequential_p99",
    label: "first sequential invokes p99",
    group: "first-contact",
    better: "lower",
    value: (f) => f.firstContact?.sequentialP99Ms.median,
  },
];

/** The compared figures, in table order: first contact, then the others. */
export const METRICS: readonly Metric[] = [
  ...FIRST_CONTACT_METRICS,
  {
    key: "cold_start",
    label: "cold start",
    group: "steady",
    better: "lower",
    value: (f) => f.coldStartMs?.median,
    target: { op: "<=", value: 1.0 },
  },
  {
    key: "throughput",
    label: "invoke throughput, warm",
    group: "steady",
    better: "higher",
    value: (f) => f.throughputPerS?.median,
    target: { op: ">=", value: 1.5 },
  },
  {
    key: "cpu_per_invoke",
    label: "CPU per invoke, warm",
    group: "steady",
    better: "lower",
    value: (f) => f.cpuPerInvokeUs?.median,
  },
  {
    key: "latency_p50",
    label: "latency p50, warm",
    group: "steady",
    better: "lower",
    value: (f) => f.latencyP50Ms?.median,
  },
  {
    key: "latency_p99",
    label: "latency p99, warm",
    group: "steady",
    better: "lower",
    value: (f) => f.latencyP99Ms?.median,
    target: { op: "<=", value: 1.2 },
  },
  {
    key: "large_argument_time",
    label: "large argument time",
    group: "steady",
    better: "lower",
    value: (f) => f.largeArgument?.timeMs.median,
  },
  {
    key: "large_argument_peak_rss",
    label: "large argument peak RSS",
    group: "steady",
    better: "lower",
    value: (f) => f.largeArgument?.peakRssBytes?.median,
  },
  {
    key: "dataset_time",
    label: "dataset time",
    group: "steady",
    better: "lower",
    value: (f) => f.dataset?.timeMs.median,
  },
  {
    key: "dataset_peak_rss",
    label: "dataset peak RSS",
    group: "steady",
    better: "lower",
    value: (f) => f.dataset?.peakRssBytes?.median,
  },
  {
    key: "idle_rss",
    label: "idle RSS",
    group: "steady",
    better: "lower",
    value: (f) => f.idleRssBytes?.median,
    target: { op: "<=", value: 0.9 },
  },
  {
    key: "idle_anon_rss",
    label: "idle RSS, anonymous part",
    group: "steady",
    better: "lower",
    value: (f) => f.idleAnonRssBytes?.median,
  },
];

/** The metric of a key (throws on an unknown key). */
export function metric(key: string): Metric {
  const found = METRICS.find((m) => m.key === key);
  if (!found) throw new Error(`unknown metric ${key}`);
  return found;
}

/**
 * Every ratio subject / baseline that both sides measured, for the SDK subjects and the
 * floor, with the target verdicts. Without a baseline figure there is no ratio.
 */
export function computeRatios(
  subjects: readonly Pick<Subject, "id" | "role">[],
  figures: Record<string, SubjectFigures>,
): Ratio[] {
  const baseline = subjects.find((subject) => subject.role === "baseline");
  const base = baseline ? figures[baseline.id] : undefined;
  if (!base) return [];
  const ratios: Ratio[] = [];
  for (const subject of subjects) {
    const own = figures[subject.id];
    if (subject.role === "baseline" || !own) continue;
    for (const m of METRICS) {
      const ratio = ratioTo(base, subject, own, m);
      if (ratio) ratios.push(ratio);
    }
  }
  return ratios;
}

/** One subject's ratio to the baseline on one metric, with the verdict for an SDK subject; undefined unless both measured it. */
function ratioTo(
  base: SubjectFigures,
  subject: Pick<Subject, "id" | "role">,
  own: SubjectFigures,
  m: Metric,
): Ratio | undefined {
  const mine = m.value(own);
  const theirs = m.value(base);
  if (mine === undefined || theirs === undefined || theirs === 0) return undefined;
  const ratio: Ratio = { subject: subject.id, metric: m.key, ratio: mine / theirs };
  if (m.target && subject.role === "sdk") {
    ratio.target = m.target;
    ratio.met = meets(ratio.ratio, m.target);
  }
  return ratio;
}

function meets(ratio: number, target: NonNullable<Metric["target"]>): boolean {
  return target.op === "<=" ? ratio <= target.value : ratio >= target.value;
}
