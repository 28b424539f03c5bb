import { METRICS, type Metric } from "../ratios.js";
import type { BenchResults, Ratio } from "../results.js";
import { num } from "./format.js";

const ROW = 20;
const HEADER = 22;
const LABEL_W = 230;
const CHART_W = 480;
const VALUE_W = 60;
const TOP = 70;
const SCALE_CAP = 4;
const COLORS = { met: "#2e7d32", missed: "#c62828", none: "#78909c" } as const;

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Line = { kind: "header"; metric: Metric } | { kind: "bar"; metric: Metric; ratio: Ratio; label: string };

/** Where the chart's parts go: the bar scale and the plot's vertical extent. */
interface Layout {
  /** The ratio at the right edge of the plot; longer bars are cut there. */
  scaleMax: number;
  /** The x coordinate of a ratio. */
  x: (value: number) => number;
  bottom: number;
  width: number;
  height: number;
}

/**
 * A horizontal bar chart of every ratio to the baseline, grouped by metric: one bar per
 * subject, the baseline (1.0) as a vertical line, each target as a dashed tick on its
 * bars. Plain SVG text, no dependencies.
 */
export function renderRatioChart(results: BenchResults): string {
  const lines = chartLines(results);
  const layout = layoutFor(lines);
  const { width, height } = layout;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, Verdana, sans-serif" font-size="12">`,
  );
  parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(...titleParts(results));
  parts.push(...axisParts(layout));
  let y = TOP;
  for (const line of lines) {
    if (line.kind === "header") {
      parts.push(headerPart(line.metric, y));
      y += HEADER;
    } else {
      parts.push(...barParts(line, y, layout));
      y += ROW;
    }
  }
  parts.push(
    `<text x="10" y="${height - 8}" fill="#555">${escapeXml("green: target met · red: target missed · grey: no target · dashed orange: the target")}</text>`,
  );
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

/** The chart's rows in order: per metric with ratios, its header, then one bar per ratio. */
function chartLines(results: BenchResults): Line[] {
  const labels = new Map(results.subjects.map((s) => [s.id, s.label]));
  const lines: Line[] = [];
  for (const metric of METRICS) {
    const ratios = results.ratios.filter((r) => r.metric === metric.key);
    if (ratios.length === 0) continue;
    lines.push({ kind: "header", metric });
    for (const ratio of ratios) {
      lines.push({ kind: "bar", metric, ratio, label: labels.get(ratio.subject) ?? ratio.subject });
    }
  }
  return lines;
}

/** A scale that fits the longest bar or target (at least 2, at most {@link SCALE_CAP}) and the chart's size. */
function layoutFor(lines: readonly Line[]): Layout {
  const largest = Math.max(
    2,
    ...lines.map((line) =>
      line.kind === "bar" ? Math.max(line.ratio.ratio, line.ratio.target?.value ?? 0) : 0,
    ),
  );
  // Ratios past the cap are drawn to the edge and labelled with a "+".
  const scaleMax = Math.min(SCALE_CAP, Math.ceil(largest * 1.05 * 2) / 2);
  const x = (value: number) => LABEL_W + (Math.min(value, scaleMax) / scaleMax) * CHART_W;
  const chartHeight = lines.reduce((sum, line) => sum + (line.kind === "header" ? HEADER : ROW), 0);
  const bottom = TOP + chartHeight;
  return { scaleMax, x, bottom, width: LABEL_W + CHART_W + VALUE_W + 10, height: bottom + 44 };
}

function titleParts(results: BenchResults): string[] {
  return [
    `<text x="10" y="22" font-size="15" font-weight="bold">${escapeXml(`Executa bench: ratios to the hand-written baseline (${results.mode} run)`)}</text>`,
    `<text x="10" y="40" fill="#555">${escapeXml(`${results.startedAt.slice(0, 10)} · Node ${results.environment.node} · ${results.environment.cpus} CPUs · bar = subject median ÷ baseline median`)}</text>`,
  ];
}

/** The vertical grid lines every 0.5 with their labels, the 1.0 line marked as the baseline. */
function axisParts({ scaleMax, x, bottom }: Layout): string[] {
  const parts: string[] = [];
  for (let tick = 0; tick <= scaleMax + 1e-9; tick += 0.5) {
    const tx = x(tick).toFixed(1);
    const isOne = Math.abs(tick - 1) < 1e-9;
    parts.push(
      `<line x1="${tx}" y1="${TOP - 8}" x2="${tx}" y2="${bottom}" stroke="${isOne ? "#222" : "#e6e6e6"}" stroke-width="${isOne ? 1.5 : 1}"/>`,
    );
    parts.push(
      `<text x="${tx}" y="${bottom + 14}" text-anchor="middle" fill="#555">${tick.toFixed(1)}</text>`,
    );
  }
  parts.push(`<text x="${x(1).toFixed(1)}" y="${TOP - 12}" text-anchor="middle" fill="#222">baseline</text>`);
  return parts;
}

function headerPart(m: Metric, y: number): string {
  const target = m.target ? ` · target ${m.target.op === "<=" ? "≤" : "≥"} ${m.target.value.toFixed(1)}` : "";
  const when = m.group === "first-contact" ? "first contact, fresh process: " : "";
  return `<text x="10" y="${y + 16}" font-weight="bold">${escapeXml(`${when}${m.label} (${m.better} is better${target})`)}</text>`;
}

/** One subject's bar: its label, the bar coloured by its verdict, the target tick, the value. */
function barParts(line: Extract<Line, { kind: "bar" }>, y: number, { scaleMax, x }: Layout): string[] {
  const { ratio } = line;
  const parts: string[] = [];
  parts.push(`<text x="${LABEL_W - 8}" y="${y + 14}" text-anchor="end">${escapeXml(line.label)}</text>`);
  parts.push(
    `<rect x="${LABEL_W}" y="${y + 3}" width="${(x(ratio.ratio) - LABEL_W).toFixed(1)}" height="${ROW - 6}" fill="${verdictColor(ratio)}"><title>${escapeXml(`${line.metric.label} · ${line.label}: ${num(ratio.ratio)}`)}</title></rect>`,
  );
  if (ratio.target) {
    const tx = x(ratio.target.value).toFixed(1);
    parts.push(
      `<line x1="${tx}" y1="${y}" x2="${tx}" y2="${y + ROW}" stroke="#ff8f00" stroke-width="2" stroke-dasharray="3,2"/>`,
    );
  }
  const overflow = ratio.ratio > scaleMax ? "+" : "";
  parts.push(
    `<text x="${(LABEL_W + CHART_W + 6).toFixed(1)}" y="${y + 14}">${escapeXml(`${num(ratio.ratio)}${overflow}`)}</text>`,
  );
  return parts;
}

function verdictColor(ratio: Ratio): string {
  if (ratio.met === undefined) return COLORS.none;
  return ratio.met ? COLORS.met : COLORS.missed;
}
