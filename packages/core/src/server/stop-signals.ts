/** Signals that all mean "stop gracefully", however often they come. */
export const STOP_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

/**
 * `Symbol.for` key of what a bundle's startup banner leaves on `globalThis`: the stop
 * signals that came before a server took the process over, an object with
 * `received: string[]` and `dispose(): void`. The server calls `dispose()` once its own
 * handlers are installed and stops at once when `received` is not empty.
 */
export const EARLY_SIGNALS_KEY = "executa.earlySignals";
