import type { InvokeResult } from "../wire/invoke.js";

/**
 * One invoke from arrival to answer: its deadline timer, its concurrency slot, and its
 * abort signal. The signal is made on first use — most tools never read it, and an
 * AbortController per invoke is a measurable share of the invoke path. The first of
 * success, failure or timeout answers; whatever comes later is ignored.
 */
export class InvokeRun {
  /** Whether it got a slot and its handler runs. */
  started = false;
  /** Withdraws a still-queued request for a slot. */
  withdraw: () => void = () => {};
  private finished = false;
  private controller: AbortController | undefined;
  private abortedWith: Error | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly tool: string,
    private readonly onFinish: (run: InvokeRun) => void,
    private resolve: (result: InvokeResult) => void,
    private reject: (error: unknown) => void,
  ) {}

  /** Points the answer at a promise made after the handler already started (the fast path). */
  rebind(resolve: (result: InvokeResult) => void, reject: (error: unknown) => void): this {
    this.resolve = resolve;
    this.reject = reject;
    return this;
  }

  /** Aborts when the invoke times out or is cut short by a stop. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortedWith) this.controller.abort(this.abortedWith);
    }
    return this.controller.signal;
  }

  /** Calls `onTimeout` after `ms` unless the run finished first. */
  armTimer(ms: number, onTimeout: () => void): void {
    this.timer = setTimeout(onTimeout, ms);
  }

  succeed(result: InvokeResult): void {
    if (this.finish()) this.resolve(result);
  }

  /** Answers with `error`; with `abort`, the handler's signal aborts with it too. */
  fail(error: unknown, abort = false): void {
    if (this.finish(abort ? (error as Error) : undefined)) this.reject(error);
  }

  private finish(abortReason?: Error): boolean {
    if (this.finished) return false;
    this.finished = true;
    clearTimeout(this.timer);
    this.withdraw();
    if (abortReason) {
      this.abortedWith = abortReason;
      this.controller?.abort(abortReason);
    }
    this.onFinish(this);
    return true;
  }
}
