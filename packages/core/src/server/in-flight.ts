import type { RpcError } from "../errors/rpc-error.js";
import type { Logger } from "../log/logger.js";
import type { InvokeRun } from "./invoke-run.js";

/**
 * The invokes not answered on arrival (queued for a slot, or running past it): what a
 * stop gives the grace period to, or cuts short.
 */
export class InFlightRuns {
  private readonly runs = new Set<InvokeRun>();
  private drainWaiters: (() => void)[] = [];

  constructor(
    private readonly log: Logger,
    private readonly graceMs: number,
  ) {}

  get size(): number {
    return this.runs.size;
  }

  add(run: InvokeRun): void {
    this.runs.add(run);
  }

  /** Forgets a run that was answered; the last one wakes a waiting drain. */
  finished(run: InvokeRun): void {
    this.runs.delete(run);
    if (this.runs.size === 0 && this.drainWaiters.length > 0) {
      for (const wake of this.drainWaiters.splice(0)) wake();
    }
  }

  /** Answers every run with `closing` at once (nothing could be answered otherwise). */
  abandon(closing: RpcError): void {
    for (const run of [...this.runs]) run.fail(closing, true);
  }

  /**
   * Answers queued runs with `closing` at once and gives running ones the grace period,
   * then answers those still running so.
   */
  async drain(closing: RpcError): Promise<void> {
    for (const run of [...this.runs]) if (!run.started) run.fail(closing, true);
    if (this.runs.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.drainWaiters.push(resolve)),
      new Promise((resolve) => {
        timer = setTimeout(resolve, this.graceMs);
      }),
    ]);
    clearTimeout(timer);
    for (const run of [...this.runs]) {
      this.log.warn(`invoke of ${run.tool} still running after the ${this.graceMs} ms grace; answered`);
      run.fail(closing, true);
    }
  }
}
