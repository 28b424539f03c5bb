/** A figure measured over several runs. */
export interface Sample {
  /** The median of {@link values}. */
  median: number;
  min: number;
  max: number;
  /** Every run's value, in the order measured. */
  values: number[];
}

/** The median, min and max of a non-empty list of run values. */
export function summarize(values: readonly number[]): Sample {
  if (values.length === 0) throw new RangeError("summarize: no values");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, values: [...values] };
}

/**
 * The p-th percentile (0–100) by the nearest-rank method: the smallest value that at
 * least p % of the values do not exceed.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError("percentile: no values");
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile: p must be 0-100, got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}
