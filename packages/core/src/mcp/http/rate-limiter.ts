/** What counts requests per caller, in memory or on Redis: the shapes both limiters share. */

/** A rate: `requests` per `perSeconds` seconds, and also the most a caller may burst. */
export interface RateLimit {
  readonly requests: number;
  readonly perSeconds: number;
}

/** The answer to one request's claim on its caller's bucket. */
export interface RateDecision {
  readonly allowed: boolean;
  /** Whole seconds until a request would be allowed: 0 when allowed. */
  readonly retryAfterSeconds: number;
}

/** Counts requests per caller. */
export interface RateLimiter {
  /** Takes one request from the bucket of `callerKey`. */
  take(callerKey: string): Promise<RateDecision>;
  /** Lets go of what the limiter holds (a connection). */
  close(): Promise<void>;
}
