import { METRICS } from "../ratios.js";
import type { BenchResults, SubjectFigures, SubjectRecord } from "../results.js";
import type { Sample } from "../stats.js";
import { bytesLabel, num, sampleCell, toMiB } from "./format.js";

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
      label: `Throughput, ${config.throughputCalls.toLocaleString("en-US")} pipelined base64_encode (invokes/s)`,
      cell: ms((f) => f.throughputPerS),
    },
    {
      label: "CPU per invoke during the throughput bursts (µs, all threads)",
      cell: ms((f) => f.cpuPerInvokeUs),
    },
    { label: `Latency p50, ping-pong × ${config.latencyCalls} (ms)`, cell: ms((f) => f.latencyP50Ms) },
    { label: `Latency p99, ping-pong × ${config.latencyCalls} (ms)`, cell: ms((f) => f.latencyP99Ms) },
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

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map((_, i) => (i === 0 ? "---" : "---:"))), ...rows.map(line)].join("\n");
}

function ordered(subjects: readonly SubjectRecord[]): SubjectRecord[] {
  const rank = { baseline: 0, sdk: 1, floor: 2 } as const;
  return [...subjects].sort((a, b) => rank[a.role] - rank[b.role]);
}

/** The run as a markdown report: environment, figures, ratios with targets, validation. */
export function renderMarkdown(results: BenchResults): string {
  const subjects = ordered(results.subjects);
  const env = results.environment;
  const out: string[] = [];
  out.push(`# Executa bench — ${results.mode} run`);
  out.push("");
  out.push(
    `${results.startedAt} · commit ${env.commit ?? "unknown"} · Node ${env.node} · ${env.platform}/${env.arch} · ${env.cpus} × ${env.cpuModel} · ${results.durationS} s`,
  );
  out.push("");
  out.push(
    `Each figure: median of ${results.config.runs} runs (cold start: ${results.config.coldStartRuns}) after ${results.config.warmups} warm-up run(s), (min–max) in brackets.`,
  );
  out.push("");
  out.push(`Measured: ${subjects.map((s) => `\`${s.id}\` = ${s.command.join(" ")}`).join("; ")}.`);
  if (results.skipped.length > 0) {
    out.push("");
    out.push(`Not measured: ${results.skipped.map((s) => `\`${s.id}\` (${s.reason})`).join("; ")}.`);
  }
  out.push("");
  out.push("## Figures");
  out.push("");
  const rows = figureRows(results);
  const timed = subjects.filter((s) => rows.some((row) => row.cell(results.figures[s.id] ?? {}) !== "—"));
  out.push(
    table(
      ["Figure", ...timed.map((s) => s.label)],
      rows.map((row) => [row.label, ...timed.map((s) => row.cell(results.figures[s.id] ?? {}))]),
    ),
  );
  const transport = subjects
    .map((s) => {
      const d = results.figures[s.id]?.dataset;
      const a = results.figures[s.id]?.largeArgument;
      if (!d && !a) return undefined;
      const how = (f: typeof d) =>
        f ? `${bytesLabel(f.responseBytes)}${f.fileTransport ? " by file transport" : " inline"}` : "—";
      return `${s.id}: argument answer ${how(a)}, dataset answer ${how(d)}`;
    })
    .filter((line): line is string => line !== undefined);
  if (transport.length > 0) {
    out.push("");
    out.push(`Responses: ${transport.join("; ")}.`);
  }
  const executables = subjects.filter((s) => s.executableBytes !== undefined);
  if (executables.length > 0) {
    out.push("");
    out.push(
      `Executable sizes: ${executables.map((s) => `${s.id} ${bytesLabel(s.executableBytes!)}`).join("; ")}.`,
    );
  }

  const compared = timed.filter((s) => s.role !== "baseline");
  out.push("");
  out.push("## Ratios to the baseline (same run)");
  out.push("");
  out.push("Subject median ÷ baseline median. ✅ target met, ❌ missed.");
  out.push("");
  const ratioRows: string[][] = [];
  for (const m of METRICS) {
    const cells = compared.map((s) => {
      const r = results.ratios.find((x) => x.subject === s.id && x.metric === m.key);
      if (!r) return "—";
      return `${num(r.ratio)}${r.met === undefined ? "" : r.met ? " ✅" : " ❌"}`;
    });
    if (cells.every((cell) => cell === "—")) continue;
    const target = m.target ? `${m.target.op === "<=" ? "≤" : "≥"} ${m.target.value.toFixed(1)}` : "—";
    ratioRows.push([`${m.label} (${m.better} is better)`, target, ...cells]);
  }
  out.push(table(["Ratio", "Target", ...compared.map((s) => s.label)], ratioRows));

  const validated = subjects.filter((s) => results.figures[s.id]?.validation);
  if (validated.length > 0) {
    out.push("");
    out.push("## Validation overhead");
    out.push("");
    out.push(
      table(
        [
          "Subject",
          "DTO tool (invokes/s)",
          "Unvalidated twin (invokes/s)",
          "Cost per call, validated ÷ unvalidated",
        ],
        validated.map((s) => {
          const v = results.figures[s.id]!.validation!;
          return [
            `${s.label}: \`${v.validatedTool}\` vs \`${v.uncheckedTool}\``,
            sampleCell(v.validatedPerS),
            sampleCell(v.uncheckedPerS),
            num(v.overhead),
          ];
        }),
      ),
    );
  }
  out.push("");
  return out.join("\n");
}
