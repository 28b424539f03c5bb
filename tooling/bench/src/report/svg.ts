import { METRICS } from "../ratios.js";
import type { BenchResults } from "../results.js";
import { num } from "./format.js";

const ROW = 22;
const LABEL_W = 330;
const CHART_W = 420;
const VALUE_W = 70;
const TOP = 64;
const COLORS = { met: "#2e7d32", missed: "#c62828", none: "#78909c" } as const;

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A horizontal bar chart of every ratio to the baseline: one bar per metric and subject,
 * the baseline (1.0) as a vertical line, each target as a dashed tick on its bar's row.
 * Plain SVG text, no dependencies.
 */
export function renderRatioChart(results: BenchResults): string {
  const labels = new Map(results.subjects.map((s) => [s.id, s.label]));
  const rows = METRICS.flatMap((m) =>
    results.ratios
      .filter((r) => r.metric === m.key)
      .map((r) => ({ ratio: r, label: `${m.label} · ${labels.get(r.subject) ?? r.subject}`, metric: m })),
  );
  const largest = Math.max(
    2,
    ...rows.map((row) => row.ratio.ratio),
    ...rows.map((row) => row.ratio.target?.value ?? 0),
  );
  const scaleMax = Math.ceil(largest * 1.05 * 2) / 2;
  const x = (value: number) => LABEL_W + (Math.min(value, scaleMax) / scaleMax) * CHART_W;
  const height = TOP + rows.length * ROW + 40;
  const width = LABEL_W + CHART_W + VALUE_W + 10;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
  );
  parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(
    `<text x="10" y="22" font-size="15" font-weight="bold">${escapeXml(`Executa bench: ratios to the hand-written baseline (${results.mode} run)`)}</text>`,
  );
  parts.push(
    `<text x="10" y="42" fill="#555">${escapeXml(`${results.startedAt.slice(0, 10)} · Node ${results.environment.node} · bar = subject ÷ baseline, dashed = target`)}</text>`,
  );
  for (let tick = 0; tick <= scaleMax + 1e-9; tick += 0.5) {
    const tx = x(tick).toFixed(1);
    const isOne = Math.abs(tick - 1) < 1e-9;
    parts.push(
      `<line x1="${tx}" y1="${TOP - 6}" x2="${tx}" y2="${TOP + rows.length * ROW}" stroke="${isOne ? "#222" : "#e0e0e0"}" stroke-width="${isOne ? 1.5 : 1}"/>`,
    );
    parts.push(
      `<text x="${tx}" y="${TOP + rows.length * ROW + 16}" text-anchor="middle" fill="#555">${tick.toFixed(1)}</text>`,
    );
  }
  rows.forEach((row, i) => {
    const y = TOP + i * ROW;
    const color = row.ratio.met === undefined ? COLORS.none : row.ratio.met ? COLORS.met : COLORS.missed;
    const better = row.metric.better === "lower" ? "↓" : "↑";
    parts.push(
      `<text x="${LABEL_W - 8}" y="${y + 15}" text-anchor="end">${escapeXml(`${row.label} ${better}`)}</text>`,
    );
    parts.push(
      `<rect x="${LABEL_W}" y="${y + 4}" width="${(x(row.ratio.ratio) - LABEL_W).toFixed(1)}" height="${ROW - 8}" fill="${color}"><title>${escapeXml(`${row.label}: ${num(row.ratio.ratio)}`)}</title></rect>`,
    );
    if (row.ratio.target) {
      const tx = x(row.ratio.target.value).toFixed(1);
      parts.push(
        `<line x1="${tx}" y1="${y + 1}" x2="${tx}" y2="${y + ROW - 1}" stroke="#ff8f00" stroke-width="2" stroke-dasharray="3,2"/>`,
      );
    }
    const overflow = row.ratio.ratio > scaleMax ? "+" : "";
    parts.push(
      `<text x="${(LABEL_W + CHART_W + 6).toFixed(1)}" y="${y + 15}">${escapeXml(`${num(row.ratio.ratio)}${overflow}`)}</text>`,
    );
  });
  parts.push(
    `<text x="${LABEL_W}" y="${height - 6}" fill="#555">${escapeXml("↓ lower is better · ↑ higher is better · green: target met · red: missed · grey: no target")}</text>`,
  );
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
