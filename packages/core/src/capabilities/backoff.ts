import { abortReason } from "../errors/abort-reason.js";

/** How long to wait between attempts: exponential with full jitter. */
export interface BackoffOptions {
  /** Upper bound of the first wait, ms. Default 50. */
  baseMs?: number;
  /** Upper bound of any wait, ms. Default 1000. */
  maxMs?: number;
}

/**
 * The wait before retry number `attempt` (1 = after the first failure): a random time in
 * `[0, min(maxMs, baseMs * 2^(attempt-1))]`, so that writers racing for one key spread out
 * instead of colliding again in lockstep.
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = {},
  random: () => number = Math.random,
) {
  const base = options.baseMs ?? 50;
  const max = options.maxMs ?? 1000;
  if (!(base >= 0) || !(max >= 0)) throw new RangeError("backoff baseMs and maxMs must be non-negative");
  const ceiling = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
  return Math.round(random() * ceiling);
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
