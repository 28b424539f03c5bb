/** The header the proxy sets on the 502 of a call whose replica died before answering. */
export const UPSTREAM_LOST_HEADER: string;

/** Drives `sessions` legacy sessions against `url` (`http://…/mcp`) for `seconds`: the counts, latency and acknowledged writes' keys. */
export function drive(options: { url: string; sessions: number; seconds: number }): Promise<
  Record<string, unknown> & {
    callsOk: number;
    callsPerSecond: number;
    latencyMs: { p50: number; p99: number };
    acknowledged: string[];
  }
>;
