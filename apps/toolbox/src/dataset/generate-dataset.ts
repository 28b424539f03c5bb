import { type Draws, drawsFrom, seededRandom } from "./seeded-random.js";
import { FIRST_NAMES, LAST_NAMES, LOREM_WORDS } from "./words.js";

/** The columns a dataset can have, in the order the reference lists them. */
export const DATASET_COLUMNS = ["id", "name", "email", "score", "timestamp", "description"] as const;
export type DatasetColumn = (typeof DATASET_COLUMNS)[number];

/** Columns used when none (or an empty list) is asked for. */
export const DEFAULT_COLUMNS: readonly DatasetColumn[] = ["id", "name", "email", "score"];

export const MIN_ROWS = 1;
export const MAX_ROWS = 100_000;
/** Every dataset starts from this seed, so equal arguments give equal rows. */
export const DATASET_SEED = 42;
/** The reference's stdio threshold: results estimated above it travel by file transport. */
export const FILE_TRANSPORT_THRESHOLD_BYTES = 512 * 1024;

export type DatasetRow = Partial<Record<DatasetColumn, string | number>>;

/** What `generate_dataset` answers. */
export interface Dataset {
  /** Rows generated, after clamping to 1–100 000. */
  rows: number;
  /** The columns used, in the order given (unknown names dropped). */
  columns: DatasetColumn[];
  /** Size of the first row as a one-element JSON array, times `rows`. */
  estimated_bytes: number;
  /** Whether that estimate is above 512 KiB, i.e. the answer goes by file transport. */
  file_transport: boolean;
  dataset: DatasetRow[];
}

const EPOCH_START_S = 1_700_000_000;
const EPOCH_SPAN_S = 10_000_000;

/**
 * One value per column, drawing from `draws` in exactly the reference's order (each
 * column's draws in the order the column appears, a repeated column drawing again).
 */
const COLUMN_RULES: Readonly<Record<DatasetColumn, (draws: Draws, index: number) => string | number>> = {
  id: (_draws, index) => index + 1,
  name: (draws) => `${draws.pick(FIRST_NAMES)} ${draws.pick(LAST_NAMES)}`,
  email: (draws) => `${`${draws.pick(FIRST_NAMES)}.${draws.pick(LAST_NAMES)}`.toLowerCase()}@example.com`,
  score: (draws) => Math.round(draws.next() * 10_000) / 100,
  timestamp: (draws) => new Date((EPOCH_START_S + draws.int(0, EPOCH_SPAN_S)) * 1000).toISOString(),
  description: (draws) => {
    const count = draws.int(10, 30);
    return Array.from({ length: count }, () => draws.pick(LOREM_WORDS)).join(" ");
  },
};

/** Which columns a request means: known names kept in order (repeats too), else the defaults. */
export function resolveColumns(requested: readonly string[] | undefined): DatasetColumn[] {
  if (!requested || requested.length === 0) return [...DEFAULT_COLUMNS];
  const known = requested.filter((name): name is DatasetColumn =>
    (DATASET_COLUMNS as readonly string[]).includes(name),
  );
  return known.length > 0 ? known : ["id"];
}

/** `rows` clamped to 1–100 000. */
export function clampRows(rows: number): number {
  return Math.max(MIN_ROWS, Math.min(MAX_ROWS, rows));
}

/**
 * A simulated dataset, row for row the one the reference Node example generates for the
 * same arguments: seed 42, the same word lists and per-column rules.
 */
export function generateDataset(rows: number, columns?: readonly string[]): Dataset {
  const count = clampRows(rows);
  const used = resolveColumns(columns);
  const draws = drawsFrom(seededRandom(DATASET_SEED));
  const dataset: DatasetRow[] = [];
  for (let index = 0; index < count; index++) {
    const row: DatasetRow = {};
    for (const column of used) row[column] = COLUMN_RULES[column](draws, index);
    dataset.push(row);
  }
  const estimated = Buffer.byteLength(JSON.stringify(dataset.slice(0, 1)), "utf8") * count;
  return {
    rows: count,
    columns: used,
    estimated_bytes: estimated,
    file_transport: estimated > FILE_TRANSPORT_THRESHOLD_BYTES,
    dataset,
  };
}
