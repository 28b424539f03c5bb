/** The deadline of one invoke, with the helpers tools use to budget their work. */
export interface InvokeDeadline {
  /** When the invoke must be done, Unix epoch ms (the context's `deadlineMs`). */
  readonly atMs: number;
  /** Whether the host sent `context.deadline_ms` (else the deadline is the tool's own timeout). */
  readonly fromHost: boolean;
  /** Milliseconds left, never negative. */
  remainingMs(): number;
  /** Seconds left, never negative (the reference SDKs' `remaining_s`). */
  remainingS(): number;
  /** Whether the deadline has passed. */
  expired(): boolean;
}

/** An {@link InvokeDeadline} at `atMs`; `now` is injectable for tests. */
export function invokeDeadline(
  atMs: number,
  fromHost: boolean,
  now: () => number = Date.now,
): InvokeDeadline {
  const remainingMs = () => Math.max(0, atMs - now());
  return Object.freeze({
    atMs,
    fromHost,
    remainingMs,
    remainingS: () => remainingMs() / 1000,
    expired: () => now() >= atMs,
  });
}
