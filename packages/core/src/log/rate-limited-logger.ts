import type { Logger, LogLevel } from "./logger.js";

/** How many lines a {@link rateLimitedLogger} lets through. */
export interface LogBudget {
  /** Lines written per window at most: 50 by default. */
  readonly lines: number;
  /** The window: 10 s by default. */
  readonly windowMs: number;
}

/**
 * A logger that writes at most `budget.lines` lines per window and then one line saying how
 * many it dropped, so traffic that makes every request log (a flood of aborted requests,
 * bad headers) cannot fill the disk or drown the lines that matter. Its children share it.
 */
export function rateLimitedLogger(log: Logger, budget: Partial<LogBudget> = {}): Logger {
  const { lines = 50, windowMs = 10_000 } = budget;
  let windowStart = 0;
  let written = 0;
  let dropped = 0;
  const admit = (): boolean => {
    const now = Date.now();
    if (now - windowStart >= windowMs) {
      windowStart = now;
      written = 0;
    }
    if (written < lines) {
      written += 1;
      return true;
    }
    if (dropped === 0) setTimeout(reportDropped, windowStart + windowMs - now).unref();
    dropped += 1;
    return false;
  };
  const reportDropped = () => {
    log.warn(`${dropped} log lines dropped in ${windowMs} ms (more than ${lines} per window)`);
    dropped = 0;
  };
  const wrap = (target: Logger): Logger => {
    const at =
      (level: LogLevel) =>
      (message: string, fields?: Record<string, unknown>): void => {
        if (admit()) target[level](message, fields);
      };
    return {
      debug: at("debug"),
      info: at("info"),
      warn: at("warn"),
      error: at("error"),
      child: (prefix) => wrap(target.child(prefix)),
    };
  };
  return wrap(log);
}
