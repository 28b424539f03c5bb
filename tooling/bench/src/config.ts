/** How thorough a run is. */
export type BenchMode = "full" | "fast" | "smoke";

/** Sizes and repetitions of one run. */
export interface BenchConfig {
  mode: BenchMode;
  /** Timed runs per figure; the figure is their median. */
  runs: number;
  /** Untimed runs before the timed ones (JIT, page cache, lazy module loading). */
  warmups: number;
  /** Cold starts per subject (cheap, so more of them). */
  coldStartRuns: number;
  /** Pipelined base64_encode invokes per throughput run. */
  throughputCalls: number;
  /** Sequential (ping-pong) invokes per latency run. */
  latencyCalls: number;
  /** Size of the large-argument frame, in bytes. */
  largeFrameBytes: number;
  /** Rows asked of generate_dataset. */
  datasetRows: number;
  /** Pipelined DTO invokes per validation run. */
  validationCalls: number;
  /** How long a subject sits idle after describe before its RSS is read, in ms. */
  idleSettleMs: number;
  /** Fresh processes per subject for the first-contact figures (no warm-up). */
  firstContactRuns: number;
  /** Pipelined invokes of the first burst of a fresh process. */
  firstBurstCalls: number;
  /** Sequential invokes of a fresh process whose p50/p99 are taken. */
  firstSequentialCalls: number;
  /** `describe` requests written while stdout is not read. */
  unreadRequests: number;
  /** How long stdout stays unread, ms. */
  unreadHoldMs: number;
  /** Fresh processes per subject for the unread-stdout figure. */
  unreadRuns: number;
}

const MiB = 1024 * 1024;

const CONFIGS: Record<BenchMode, BenchConfig> = {
  full: {
    mode: "full",
    runs: 7,
    warmups: 1,
    coldStartRuns: 21,
    throughputCalls: 20_000,
    latencyCalls: 5_000,
    largeFrameBytes: 10 * MiB,
    datasetRows: 100_000,
    validationCalls: 20_000,
    idleSettleMs: 500,
    firstContactRuns: 11,
    firstBurstCalls: 20_000,
    firstSequentialCalls: 200,
    unreadRequests: 20_000,
    unreadHoldMs: 2_000,
    unreadRuns: 3,
  },
  fast: {
    mode: "fast",
    runs: 5,
    warmups: 1,
    coldStartRuns: 5,
    throughputCalls: 5_000,
    latencyCalls: 500,
    largeFrameBytes: 10 * MiB,
    datasetRows: 100_000,
    validationCalls: 5_000,
    idleSettleMs: 200,
    firstContactRuns: 5,
    firstBurstCalls: 20_000,
    firstSequentialCalls: 200,
    unreadRequests: 20_000,
    unreadHoldMs: 2_000,
    unreadRuns: 1,
  },
  // Exercises every code path with tiny sizes; its numbers mean nothing.
  smoke: {
    mode: "smoke",
    runs: 1,
    warmups: 0,
    coldStartRuns: 1,
    throughputCalls: 50,
    latencyCalls: 20,
    largeFrameBytes: 1 * MiB,
    datasetRows: 10_000,
    validationCalls: 50,
    idleSettleMs: 20,
    firstContactRuns: 1,
    firstBurstCalls: 50,
    firstSequentialCalls: 20,
    unreadRequests: 2_000,
    unreadHoldMs: 100,
    unreadRuns: 1,
  },
};

/** The configuration of a mode, with optional overrides. */
export function benchConfig(
  mode: BenchMode,
  overrides: Partial<Omit<BenchConfig, "mode">> = {},
): BenchConfig {
  const config = { ...CONFIGS[mode], ...overrides };
  for (const [key, value] of Object.entries(config)) {
    if (key !== "mode" && (!Number.isInteger(value) || (value as number) < 0)) {
      throw new RangeError(`bench config: ${key} must be a non-negative integer, got ${String(value)}`);
    }
  }
  if (config.runs < 1 || config.coldStartRuns < 1 || config.firstContactRuns < 1 || config.unreadRuns < 1)
    throw new RangeError("bench config: runs must be at least 1");
  return config;
}
