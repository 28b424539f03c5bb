/**
 * Runs at most `limit` tasks at once; the rest wait in arrival order.
 * A waiting task can be withdrawn (e.g. its deadline passed before it started).
 */
export class ConcurrencyLimiter {
  private running = 0;
  private readonly waiting: { start: () => void; cancelled: boolean }[] = [];

  constructor(private readonly limit: number) {
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
    if (this.running < this.limit) {
      this.running += 1;
      start();
      return () => {};
    }
    const entry = { start, cancelled: false };
    this.waiting.push(entry);
    return () => {
      entry.cancelled = true;
    };
  }

  /** Takes a slot at once when one is free and nobody waits; true if taken. */
  tryAcquire(): boolean {
    if (this.running >= this.limit || this.waiting.length > 0) return false;
    this.running += 1;
    return true;
  }

  /** Frees a slot and starts the next waiting task. */
  release(): void {
    this.running -= 1;
    while (this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      if (next.cancelled) continue;
      this.running += 1;
      next.start();
      return;
    }
  }
}
