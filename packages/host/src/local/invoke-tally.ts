import type { ReverseCallContext } from "../providers/provider.js";

/**
 * Running totals kept per active invoke (calls, tokens, images), each dropped when its
 * invoke ends: the per-invoke caps of the local providers count with it.
 */
export class InvokeTally<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly initial: () => T) {}

  /** The totals of the call's invoke, started on its first call. */
  of(context: Pick<ReverseCallContext, "invokeId" | "signal">): T {
    const { invokeId, signal } = context;
    let entry = this.entries.get(invokeId);
    if (entry === undefined) {
      entry = this.initial();
      this.entries.set(invokeId, entry);
      signal.addEventListener("abort", () => this.entries.delete(invokeId), { once: true });
    }
    return entry;
  }
}
