/**
 * The committed table of how long each test file takes (`durations.json`: path from the
 * repository root → milliseconds), which orders the files of a run longest first (see
 * ./src/longest-first-sequencer.ts). Rough figures are enough: a file the table does not
 * know counts as DEFAULT_DURATION_MS, and `node tooling/test-tiers/refresh-durations.mjs`
 * rewrites the table from vitest's results of the last runs on this machine, or from the
 * output of a run (e.g. a CI log).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The table's file. */
export const DURATIONS_FILE = fileURLToPath(new URL("./durations.json", import.meta.url));

/** What a file the table does not know is expected to take: a few seconds, as most files do. */
export const DEFAULT_DURATION_MS = 2_000;

/** The committed table; empty when the file is missing or unreadable, so that order never fails a run. */
export function readDurations(file = DURATIONS_FILE) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return {};
  }
}

/** How long `path` (from the repository root, `/`-separated) is expected to take. */
export function expectedDuration(table, path) {
  const known = table[path];
  return typeof known === "number" && Number.isFinite(known) ? known : DEFAULT_DURATION_MS;
}

/**
 * The table after a run: each measured file's duration (rounded to the millisecond) replaces
 * the table's, a file no longer present is dropped, the others are kept; keys sorted, so the
 * committed file changes only where a figure did.
 */
export function mergeDurations(table, measured, exists) {
  const merged = { ...table, ...measured };
  return Object.fromEntries(
    Object.keys(merged)
      .filter((path) => exists(path))
      .sort()
      .map((path) => [path, Math.round(merged[path])]),
  );
}

/** A passing file's line in vitest's default output: `✓ <project> <path> (N tests…) <time>`. */
const PASSED_FILE = /^\s*✓\s+(\S+)\s+(\S+\.test\.ts)\s+\([^)]*\)\s+([\d.]+)(ms|s)\s*$/;

/**
 * Each passing file's duration in the output of vitest's default reporter (colours and all),
 * for the projects `inTier` accepts: path → milliseconds.
 */
export function durationsFromLog(text, inTier) {
  const measured = {};
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the colours are ANSI escapes
  for (const line of text.replace(/\x1b\[[0-9;]*m/g, "").split("\n")) {
    const match = PASSED_FILE.exec(line);
    if (!match || !inTier(match[1])) continue;
    measured[match[2]] = Number(match[3]) * (match[4] === "s" ? 1000 : 1);
  }
  return measured;
}
