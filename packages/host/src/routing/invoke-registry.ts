import { JsonRpcErrorCode, RoutingErrorCode, RpcError } from "@executa/core";
import { HostError } from "../errors/host-error.js";

/** One invoke the host has sent and not yet seen settle. */
export interface ActiveInvoke {
  readonly invokeId: string;
  readonly tool: string;
  readonly deadlineMs: number;
  /** Aborted when the invoke ends, so reverse calls made for it stop too. */
  readonly controller: AbortController;
}

/**
 * The invokes in flight, and the spec's routing rule for reverse calls
 * (executa-protocol.md, "Reverse-RPC ↔ parent-invoke correlation").
 */
export class InvokeRegistry {
  private readonly active = new Map<string, ActiveInvoke>();

  get size(): number {
    return this.active.size;
  }

  has(invokeId: string): boolean {
    return this.active.has(invokeId);
  }

  /** Registers an invoke; its id must not be in flight already. */
  add(invokeId: string, tool: string, deadlineMs: number): ActiveInvoke {
    if (this.active.has(invokeId))
      throw new HostError("INVOKE_ID_IN_USE", `invoke id ${invokeId} is already in flight`);
    const entry: ActiveInvoke = { invokeId, tool, deadlineMs, controller: new AbortController() };
    this.active.set(invokeId, entry);
    return entry;
  }

  /** Forgets an invoke and aborts whatever still runs on its behalf. */
  remove(invokeId: string): void {
    const entry = this.active.get(invokeId);
    if (!entry) return;
    this.active.delete(invokeId);
    entry.controller.abort(new HostError("INVOKE_ENDED", `invoke ${invokeId} ended`));
  }

  /** Forgets every invoke (the plugin went away). */
  clear(): void {
    for (const id of [...this.active.keys()]) this.remove(id);
  }

  /**
   * The invoke a reverse call runs for, from its `params.context.invoke_id`:
   * a known id → that invoke; an unknown or finished one → -32602
   * `UNKNOWN_INVOKE_CONTEXT`; none given → the only active invoke, or -32602
   * `MISSING_INVOKE_CONTEXT` when there are several (the host never guesses) or none.
   */
  resolve(params: Record<string, unknown>): ActiveInvoke {
    const context = params.context;
    const raw =
      typeof context === "object" && context !== null && !Array.isArray(context)
        ? (context as Record<string, unknown>).invoke_id
        : undefined;
    if (raw !== undefined && raw !== null) {
      const entry = typeof raw === "string" ? this.active.get(raw) : undefined;
      if (!entry) {
        throw new RpcError(
          JsonRpcErrorCode.INVALID_PARAMS,
          `context.invoke_id ${JSON.stringify(raw)} is not an active invoke`,
          { errorCode: RoutingErrorCode.UNKNOWN_INVOKE_CONTEXT, invoke_id: raw },
        );
      }
      return entry;
    }
    if (this.active.size === 1) return this.active.values().next().value as ActiveInvoke;
    throw new RpcError(
      JsonRpcErrorCode.INVALID_PARAMS,
      this.active.size === 0
        ? "reverse call without context.invoke_id while no invoke is active"
        : `reverse call without context.invoke_id while ${this.active.size} invokes are active; echo context.invoke_id`,
      { errorCode: RoutingErrorCode.MISSING_INVOKE_CONTEXT, active_invokes: this.active.size },
    );
  }
}
