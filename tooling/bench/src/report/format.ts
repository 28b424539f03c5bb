import type { Sample } from "../stats.js";

const MiB = 1024 * 1024;

/** A number with a fixed number of significant-looking decimals for its size. */
export function num(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 10_000) return Math.round(value).toLocaleString("en-US");
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** `median (min–max)` of a sample, each value passed through `scale` first. */
export function sampleCell(sample: Sample | undefined, scale: (value: number) => number = (v) => v): string {
  if (!sample) return "—";
  const median = num(scale(sample.median));
  if (sample.values.length < 2) return median;
  return `${median} (${num(scale(sample.min))}–${num(scale(sample.max))})`;
}

/** Bytes to MiB. */
export const toMiB = (bytes: number): number => bytes / MiB;

/** A byte count as `10.0 MiB` / `512 KiB` / `12 B`. */
export function bytesLabel(bytes: number): string {
  if (bytes >= MiB) return `${num(bytes / MiB)} MiB`;
  if (bytes >= 1024) return `${num(bytes / 1024)} KiB`;
  return `${bytes} B`;
}

/** A Markdown table: the first column left-aligned, the others right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map((_, i) => (i === 0 ? "---" : "---:"))), ...rows.map(line)].join("\n");
}
