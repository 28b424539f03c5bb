/**
 * How long synchronous tool code has held the event loop in the current turn. Once the
 * budget is spent, the server starts no further invoke in this turn: input (e.g. `health`),
 * timers and signals are handled first. The count resets at the next turn's check phase.
 */
export class TurnBudget {
  private spentMs = 0;
  private resetScheduled = false;
  private readonly reset = () => {
    this.spentMs = 0;
    this.resetScheduled = false;
  };

  constructor(private readonly budgetMs: number) {}

  /** True when this turn has already run `budgetMs` of synchronous tool code. */
  get spent(): boolean {
    return this.spentMs >= this.budgetMs;
  }

  /** Records `ms` of synchronous work done in this turn. */
  charge(ms: number): void {
    this.spentMs += ms;
    if (this.resetScheduled) return;
    this.resetScheduled = true;
    setImmediate(this.reset);
  }
}
