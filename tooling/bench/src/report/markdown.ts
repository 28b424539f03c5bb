import { METRICS, type Metric } from "../ratios.js";
import type { BenchResults, FirstContactFigures, Ratio, SubjectFigures, SubjectRecord } from "../results.js";
import type { Sample } from "../stats.js";
import { bytesLabel, num, sampleCell, table, toMiB } from "./format.js";
import { mcpSection } from "./mcp-markdown.js";

interface FigureRow {
  label: string;
  cell: (figures: SubjectFigures) => string;
}

function figureRows(results: BenchResults): FigureRow[] {
  const { config } = results;
  const ms = (pick: (f: SubjectFigures) => Sample | undefined) => (f: SubjectFigures) => sampleCell(pick(f));
  const mib = (pick: (f: SubjectFigures) => Sample | undefined) => (f: SubjectFigures) =>
    sampleCell(pick(f), toMiB);
  return [
    { label: "Cold start, spawn → describe answered (ms)", cell: ms((f) => f.coldStartMs) },
    {
      label: `Throughput, warm: ${config.throughputCalls.toLocaleString("en-US")} pipelined base64_encode (invokes/s)`,
      cell: ms((f) => f.throughputPerS),
    },
    {
      label: "CPU per invoke during the warm throughput bursts (µs, all threads)",
      cell: ms((f) => f.cpuPerInvokeUs),
    },
    { label: `Latency p50, warm: ping-pong × ${config.latencyCalls} (ms)`, cell: ms((f) => f.latencyP50Ms) },
    { label: `Latency p99, warm: ping-pong × ${config.latencyCalls} (ms)`, cell: ms((f) => f.latencyP99Ms) },
    {
      label: `${bytesLabel(config.largeFrameBytes)} argument frame: time (ms)`,
      cell: ms((f) => f.largeArgument?.timeMs),
    },
    {
      label: `${bytesLabel(config.largeFrameBytes)} argument frame: peak RSS (MiB)`,
      cell: mib((f) => f.largeArgument?.peakRssBytes),
    },
    {
      label: `generate_dataset ${config.datasetRows.toLocaleString("en-US")} rows: time (ms)`,
      cell: ms((f) => f.dataset?.timeMs),
    },
    {
      label: `generate_dataset ${config.datasetRows.toLocaleString("en-US")} rows: peak RSS (MiB)`,
      cell: mib((f) => f.dataset?.peakRssBytes),
    },
    { label: "Idle RSS after describe (MiB)", cell: mib((f) => f.idleRssBytes) },
    { label: "… of which anonymous, RssAnon (MiB)", cell: mib((f) => f.idleAnonRssBytes) },
  ];
}

function ordered(subjects: readonly SubjectRecord[]): SubjectRecord[] {
  const rank = { baseline: 0, sdk: 1, floor: 2 } as const;
  return [...subjects].sort((a, b) => rank[a.role] - rank[b.role]);
}

/** The run as a markdown report: environment, figures, ratios with targets, validation. */
export function renderMarkdown(results: BenchResults): string {
  const subjects = ordered(results.subjects);
  const rows = figureRows(results);
  const timed = subjects.filter((s) => rows.some((row) => row.cell(results.figures[s.id] ?? {}) !== "—"));
  return [
    ...headerSection(results, subjects),
    ...firstContactSection(results, subjects),
    ...figuresSection(results, subjects, rows, timed),
    ...ratiosSection(
      results,
      timed.filter((s) => s.role !== "baseline"),
      "steady",
    ),
    ...validationSection(results, subjects),
    ...mcpSection(results),
    "",
  ].join("\n");
}

/** Title, environment, how each figure was taken, the subjects measured and those that were not. */
function headerSection(results: BenchResults, subjects: readonly SubjectRecord[]): string[] {
  const env = results.environment;
  const out = [
    `# Executa bench — ${results.mode} run`,
    "",
    `${results.startedAt} · commit ${env.commit ?? "unknown"} · Node ${env.node} · ${env.platform}/${env.arch} · ${env.cpus} × ${env.cpuModel} · ${results.durationS} s`,
    "",
    `Each figure: median of ${results.config.runs} runs (cold start: ${results.config.coldStartRuns}) after ${results.config.warmups} warm-up run(s), (min–max) in brackets.`,
    "",
    `Measured: ${subjects.map((s) => `\`${s.id}\` = ${s.command.join(" ")}`).join("; ")}.`,
  ];
  if (results.skipped.length > 0) {
    out.push("", `Not measured: ${results.skipped.map((s) => `\`${s.id}\` (${s.reason})`).join("; ")}.`);
  }
  return out;
}

/** The figures table of the subjects that have any, then how large answers travelled and the executable sizes. */
function figuresSection(
  results: BenchResults,
  subjects: readonly SubjectRecord[],
  rows: readonly FigureRow[],
  timed: readonly SubjectRecord[],
): string[] {
  // A run of the first-contact figures alone (`--only first-contact`) has no other table.
  const out =
    timed.length === 0
      ? []
      : [
          "",
          "## Figures",
          "",
          table(
            ["Figure", ...timed.map((s) => s.label)],
            rows.map((row) => [row.label, ...timed.map((s) => row.cell(results.figures[s.id] ?? {}))]),
          ),
        ];
  const transport = subjects
    .map((s) => transportNote(s, results.figures[s.id]))
    .filter((line): line is string => line !== undefined);
  if (transport.length > 0) out.push("", `Responses: ${transport.join("; ")}.`);
  const executables = subjects.filter((s) => s.executableBytes !== undefined);
  if (executables.length > 0) {
    out.push(
      "",
      `Executable sizes: ${executables.map((s) => `${s.id} ${bytesLabel(s.executableBytes!)}`).join("; ")}.`,
    );
  }
  return out;
}

/** How a subject's large-argument and dataset answers came back (size, inline or file transport). */
function transportNote(subject: SubjectRecord, figures: SubjectFigures | undefined): string | undefined {
  const d = figures?.dataset;
  const a = figures?.largeArgument;
  if (!d && !a) return undefined;
  const how = (f: typeof d) =>
    f ? `${bytesLabel(f.responseBytes)}${f.fileTransport ? " by file transport" : " inline"}` : "—";
  return `${subject.id}: argument answer ${how(a)}, dataset answer ${how(d)}`;
}

/** The rows of the first-contact table. */
function firstContactRows(results: BenchResults): FigureRow[] {
  const { config } = results;
  const cell =
    (pick: (f: FirstContactFigures) => Sample | undefined, scale?: (value: number) => number) =>
    (f: SubjectFigures) =>
      f.firstContact ? sampleCell(pick(f.firstContact), scale) : "—";
  const calls = (n: number) => n.toLocaleString("en-US");
  return [
    { label: "Spawn → describe answered (ms)", cell: cell((f) => f.describeMs) },
    {
      label: "Spawn → first invoke answered, written with describe (ms)",
      cell: cell((f) => f.firstInvokeMs),
    },
    {
      label: `First burst: ${calls(config.firstBurstCalls)} pipelined base64_encode right after (invokes/s)`,
      cell: cell((f) => f.burstPerS),
    },
    { label: "First burst: CPU per invoke (µs, all threads)", cell: cell((f) => f.burstCpuPerInvokeUs) },
    { label: "First burst: peak RSS (MiB)", cell: cell((f) => f.burstPeakRssBytes, toMiB) },
    {
      label: `First ${calls(config.firstSequentialCalls)} sequential invokes: p50 (ms)`,
      cell: cell((f) => f.sequentialP50Ms),
    },
    {
      label: `First ${calls(config.firstSequentialCalls)} sequential invokes: p99 (ms)`,
      cell: cell((f) => f.sequentialP99Ms),
    },
    {
      label: `RSS growth, ${calls(config.unreadRequests)} describes with stdout unread ${config.unreadHoldMs / 1000} s (MiB; target ≤ 32)`,
      cell: cell((f) => f.unreadRssGrowthBytes, toMiB),
    },
  ];
}

/** What a host meets first, ahead of everything else: the fresh-process figures and their ratios. */
function firstContactSection(results: BenchResults, subjects: readonly SubjectRecord[]): string[] {
  const measured = subjects.filter((s) => results.figures[s.id]?.firstContact);
  if (measured.length === 0) return [];
  const { config } = results;
  const rows = firstContactRows(results);
  return [
    "",
    "## First contact (fresh process, no warm-up)",
    "",
    `Each run a new process, nothing warmed up; median of ${config.firstContactRuns} runs (RSS with stdout unread: ${config.unreadRuns}), (min–max) in brackets. Every id of the unread describes was answered exactly once.`,
    "",
    table(
      ["Figure", ...measured.map((s) => s.label)],
      rows.map((row) => [row.label, ...measured.map((s) => row.cell(results.figures[s.id] ?? {}))]),
    ),
    ...ratiosTable(
      results,
      measured.filter((s) => s.role !== "baseline"),
      "first-contact",
    ),
  ];
}

/** One row per metric of a group that any compared subject has, with its target and verdicts. */
function ratiosTable(
  results: BenchResults,
  compared: readonly SubjectRecord[],
  group: Metric["group"],
): string[] {
  const ratioRows: string[][] = [];
  for (const m of METRICS) {
    if (m.group !== group) continue;
    const cells = compared.map((s) => ratioCell(results.ratios, s.id, m.key));
    if (cells.every((cell) => cell === "—")) continue;
    const target = m.target ? `${m.target.op === "<=" ? "≤" : "≥"} ${m.target.value.toFixed(1)}` : "—";
    ratioRows.push([`${m.label} (${m.better} is better)`, target, ...cells]);
  }
  if (ratioRows.length === 0) return [];
  return [
    "",
    "Subject median ÷ baseline median. ✅ target met, ❌ missed.",
    "",
    table(["Ratio", "Target", ...compared.map((s) => s.label)], ratioRows),
  ];
}

/** The ratios table of the other figures. */
function ratiosSection(
  results: BenchResults,
  compared: readonly SubjectRecord[],
  group: Metric["group"],
): string[] {
  const rows = ratiosTable(results, compared, group);
  return rows.length === 0 ? [] : ["", "## Ratios to the baseline (same run)", ...rows];
}

function ratioCell(ratios: readonly Ratio[], subject: string, metric: string): string {
  const r = ratios.find((x) => x.subject === subject && x.metric === metric);
  if (!r) return "—";
  return `${num(r.ratio)}${r.met === undefined ? "" : r.met ? " ✅" : " ❌"}`;
}

/** The validation overhead table, for the subjects measured on it. */
function validationSection(results: BenchResults, subjects: readonly SubjectRecord[]): string[] {
  const validated = subjects.filter((s) => results.figures[s.id]?.validation);
  if (validated.length === 0) return [];
  const header = [
    "Subject",
    "DTO tool (invokes/s)",
    "Unvalidated twin (invokes/s)",
    "Cost per call, validated ÷ unvalidated",
  ];
  const rows = validated.map((s) => {
    const v = results.figures[s.id]!.validation!;
    return [
      `${s.label}: \`${v.validatedTool}\` vs \`${v.uncheckedTool}\``,
      sampleCell(v.validatedPerS),
      sampleCell(v.uncheckedPerS),
      num(v.overhead),
    ];
  });
  return ["", "## Validation overhead", "", table(header, rows)];
}
