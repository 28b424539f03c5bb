import type { InvokeContext } from "../context/invoke-context.js";

/** One progress report of a running tool. */
export interface ProgressUpdate {
  /** Work done so far; must grow from one report to the next. */
  progress: number;
  /** Total work, when known. */
  total?: number;
  /** What is happening now, in words. */
  message?: string;
}

/** Sends one progress update to whoever asked for progress of an invoke. */
export type ProgressSink = (update: ProgressUpdate) => void;

/** Keyed by the invoke's wire context object, which is one object per invoke (`ctx.raw`). */
const sinks = new WeakMap<object, { send: ProgressSink; last: number }>();

/** Makes progress of the invoke whose wire context is `wire` go to `send` (MCP: a `progressToken` was given). */
export function listenForProgress(wire: object, send: ProgressSink): void {
  sinks.set(wire, { send, last: Number.NEGATIVE_INFINITY });
}

/**
 * Reports a running tool's progress. Under MCP, when the client asked for progress (a
 * `progressToken`), it is sent as `notifications/progress`; otherwise (Executa has no
 * progress notification, or nobody asked) nothing is sent. A value that does not grow
 * past the previous one is dropped, as MCP requires. Returns whether it was sent.
 *
 * @example
 * ```ts
 * for (const [i, row] of rows.entries()) {
 *   reportProgress(ctx, { progress: i + 1, total: rows.length });
 *   await process(row);
 * }
 * ```
 */
export function reportProgress(ctx: Pick<InvokeContext, "raw">, update: ProgressUpdate): boolean {
  const sink = sinks.get(ctx.raw);
  if (!sink || !Number.isFinite(update.progress) || update.progress <= sink.last) return false;
  sink.last = update.progress;
  sink.send(update);
  return true;
}
