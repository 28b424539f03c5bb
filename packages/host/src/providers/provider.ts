import type { CapabilityFamily } from "../routing/families.js";

/** What a provider knows about the invoke a reverse call serves. */
export interface ReverseCallContext {
  /** The `context.invoke_id` of the invoke this call runs for. */
  readonly invokeId: string;
  /** The tool being invoked. */
  readonly tool: string;
  /** The host's name for the plugin (`context.plugin_name`). */
  readonly pluginName: string;
  /** The invoke's absolute deadline, Unix epoch ms. */
  readonly deadlineMs: number;
  /**
   * How long the provider may take: the call's `_clientTimeoutS` when it sent one,
   * else the time left before the invoke's deadline.
   */
  readonly timeoutMs: number;
  /** The local user every scope belongs to. */
  readonly userId: string;
  /** The app the plugin runs inside, if any; `app` scope is granted only with one. */
  readonly appId: string | undefined;
  /** Aborts when the invoke ends (answered, timed out, plugin gone). */
  readonly signal: AbortSignal;
}

/** One reverse call (plugin → host request), after routing and grant checks. */
export interface ReverseCall {
  /** e.g. `storage/set`. */
  readonly method: string;
  /** The request's params, as an object (an absent params is `{}`). */
  readonly params: Record<string, unknown>;
  readonly context: ReverseCallContext;
}

/**
 * Answers the reverse calls of one method family. Return (or resolve with) the result;
 * throw an `RpcError` with the family's code for an error frame. Any other thrown error
 * is answered as -32603 and logged.
 */
export interface ReverseProvider {
  handle(call: ReverseCall): unknown;
}

/** The providers a host answers reverse calls with, keyed by method family. */
export type ProviderSet = Partial<Record<CapabilityFamily, ReverseProvider>>;
