/**
 * Runs at most `limit` tasks at once; the rest wait in arrival order.
 * A waiting task can be withdrawn (e.g. its deadline passed before it started).
 *
 * When `mustYield` says the current event-loop turn has been busy long enough, free
 * slots are filled from a later turn (setImmediate) instead of at once, so input,
 * timers and signals get a turn between tasks that hold the CPU.
 */
export class ConcurrencyLimiter {
  private running = 0;
  private readonly waiting: { start: () => void; cancelled: boolean }[] = [];
  private fillScheduled = false;
  private readonly fill = () => {
    this.fillScheduled = false;
    this.startWaiting();
  };

  constructor(
    private readonly limit: number,
    private readonly mustYield: () => boolean = () => false,
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`concurrency must be a positive integer, got ${limit}`);
  }

  /** Tasks running now. */
  get active(): number {
    return this.running;
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.filter((entry) => !entry.cancelled).length;
  }

  /**
   * Asks for a slot: `start` runs when one is free (maybe at once). Returns a function that
   * withdraws a still-waiting request; once started, call `release` when done.
   */
  acquire(start: () => void): () => void {
    if (this.tryAcquire()) {
      start();
      return () => {};
    }
    const entry = { start, cancelled: false };
    this.waiting.push(entry);
    if (this.running < this.limit) this.scheduleFill();
    return () => {
      entry.cancelled = true;
    };
  }

  /** Takes a slot at once when one is free, nobody waits and the turn need not yield; true if taken. */
  tryAcquire(): boolean {
    if (this.running >= this.limit || this.waiting.length > 0 || this.mustYield()) return false;
    this.running += 1;
    return true;
  }

  /** Frees a slot and starts the next waiting task (in a later turn when this one was busy). */
  release(): void {
    this.running -= 1;
    this.startWaiting();
  }

  private startWaiting(): void {
    while (this.running < this.limit) {
      while (this.waiting.length > 0 && this.waiting[0]!.cancelled) this.waiting.shift();
      if (this.waiting.length === 0) return;
      if (this.mustYield()) {
        this.scheduleFill();
        return;
      }
      const next = this.waiting.shift()!;
      this.running += 1;
      next.start();
    }
  }

  private scheduleFill(): void {
    if (this.fillScheduled) return;
    this.fillScheduled = true;
    setImmediate(this.fill);
  }
}
