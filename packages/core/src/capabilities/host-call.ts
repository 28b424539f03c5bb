import type { ReverseChannel } from "../context/reverse-channel.js";
import { abortReason } from "../errors/abort-reason.js";
import { RpcError } from "../errors/rpc-error.js";
import { shapeCheckOf } from "../schema/shape-check.js";
import {
  type ReverseMethod,
  type ReverseMethodSpec,
  type ReverseParams,
  type ReverseResult,
  refusalCode,
} from "../wire/capability-families.js";
import { JsonRpcErrorCode } from "../wire/error-codes.js";
import { CapabilityError } from "./capability-error.js";
import type { CallOptions, Family } from "./family.js";
import { malformedReply, replyObject } from "./reply-shape.js";

/** What a capability client knows about the invoke it works for. */
export interface InvokeBinding {
  /** `context.invoke_id` of the invoke, echoed on every reverse call; undefined when the host sent none. */
  readonly invokeId: string | undefined;
  /** Aborts when the invoke ends (deadline, shutdown, host gone). */
  readonly signal: AbortSignal;
  /** Milliseconds left before the invoke's deadline. */
  remainingMs(): number;
}

/**
 * Time kept back from the invoke's remaining time, so that a reverse call the host never
 * answers fails a moment before the invoke's deadline and the tool can still answer (with
 * a fallback, or a `ToolError`) instead of being cut off by the deadline itself.
 */
export const DEADLINE_RESERVE_MS = 50;

/** The time budget and abort signal of one step of a capability call. */
export interface Budget {
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

/**
 * The one way capability clients reach the host: checks negotiation and the declared
 * capability locally, stamps `context.invoke_id` and `_clientTimeoutS`, bounds the call
 * by the invoke's deadline and signal, and turns failures into the family's error. All
 * families share the server's one peer and its one pending table.
 */
export class HostCaller {
  constructor(
    private readonly channel: ReverseChannel,
    private readonly invoke: InvokeBinding,
  ) {}

  /**
   * Sends `spec.method` with `params` (undefined values dropped) and resolves with the
   * result. Params outside the method's params schema are the family's INVALID_REQUEST,
   * and a reply outside its result schema the family's malformed-reply error, each naming
   * the field. `defaultTimeoutMs` overrides the method's default (a mode that moves less).
   */
  async call<M extends ReverseMethod>(
    family: Family,
    spec: ReverseMethodSpec<M>,
    params: ReverseParams<M>,
    options: CallOptions = {},
    defaultTimeoutMs: number = spec.timeoutMs,
  ): Promise<ReverseResult<M>> {
    this.ensureAvailable(family, spec);
    const { timeoutMs, signal } = this.budget(family, spec.method, defaultTimeoutMs, options);
    const wire: Record<string, unknown> = dropUndefined(params as Record<string, unknown>);
    const bad = shapeCheckOf(spec.params)(wire);
    if (bad) {
      throw family.error(
        family.codes.INVALID_REQUEST,
        `${spec.method}: ${bad.path || "params"} ${bad.problem}`,
        {
          method: spec.method,
          path: bad.path,
        },
      );
    }
    wire._clientTimeoutS = Math.round(timeoutMs) / 1000;
    if (this.invoke.invokeId !== undefined) wire.context = { invoke_id: this.invoke.invokeId };
    let result: unknown;
    try {
      result = await this.channel.request(spec.method, wire, {
        timeoutMs,
        signal,
        timeoutError: () =>
          family.error(
            family.codes.TIMEOUT,
            `${spec.method}: the host did not answer within ${timeoutMs} ms`,
            {
              method: spec.method,
              timeout_ms: timeoutMs,
            },
          ),
      });
    } catch (error) {
      throw this.failure(family, spec.method, error, signal);
    }
    const reply = replyObject(family, spec.method, result);
    const malformed = shapeCheckOf(spec.result)(reply);
    if (malformed) throw malformedReply(family, spec.method, malformed.path, malformed.problem);
    return reply as ReverseResult<M>;
  }

  /**
   * Throws the family's error, without sending anything, unless the host negotiated
   * protocol 2.0 and the manifest declares `spec.capability`.
   */
  ensureAvailable(family: Family, spec: Pick<ReverseMethodSpec, "method" | "capability">): void {
    if (this.channel.protocolVersion() !== "2.0") {
      throw family.error(
        refusalCode(family.codes, "not_negotiated"),
        `${spec.method} needs Executa protocol 2.0, but the host did not negotiate it ` +
          "(it sent no initialize, or offered only 1.1); reverse calls are unavailable with this host",
        { method: spec.method, capability: spec.capability, reason: "not_negotiated" },
      );
    }
    if (!this.channel.hostCapabilities.includes(spec.capability)) {
      throw family.error(
        refusalCode(family.codes, "not_granted"),
        `${spec.method} needs the "${spec.capability}" host capability: ` +
          `add "${spec.capability}" to host_capabilities in the plugin manifest`,
        { method: spec.method, capability: spec.capability, reason: "not_declared" },
      );
    }
  }

  /**
   * The budget of one step: the smaller of the asked (or default) timeout and the
   * invoke's remaining time less {@link DEADLINE_RESERVE_MS}; aborted by the invoke's
   * signal and the caller's. Throws the family's TIMEOUT error when no time is left, and
   * the abort reason when already aborted.
   */
  budget(family: Family, what: string, defaultTimeoutMs: number, options: CallOptions = {}): Budget {
    const asked = options.timeoutMs ?? defaultTimeoutMs;
    if (typeof asked !== "number" || !(asked > 0)) {
      throw family.error(
        family.codes.INVALID_REQUEST,
        `${what}: timeoutMs must be a positive number of milliseconds, got ${String(options.timeoutMs)}`,
      );
    }
    const signal = options.signal
      ? AbortSignal.any([this.invoke.signal, options.signal])
      : this.invoke.signal;
    if (signal.aborted) throw abortReason(signal);
    const timeoutMs = Math.min(asked, this.invoke.remainingMs() - DEADLINE_RESERVE_MS);
    if (timeoutMs <= 0) {
      throw family.error(family.codes.TIMEOUT, `${what}: no time left before the invoke's deadline`, {
        method: what,
        timeout_ms: 0,
      });
    }
    return { timeoutMs, signal };
  }

  /** Milliseconds left in the invoke, less the reserve. */
  remainingMs(): number {
    return this.invoke.remainingMs() - DEADLINE_RESERVE_MS;
  }

  /** The invoke's signal. */
  get signal(): AbortSignal {
    return this.invoke.signal;
  }

  private failure(family: Family, method: string, error: unknown, signal: AbortSignal): Error {
    if (error instanceof CapabilityError) return error;
    if (signal.aborted) return abortReason(signal);
    if (error instanceof RpcError) return family.error(error.code, error.message, error.data);
    const message = error instanceof Error ? error.message : String(error);
    return family.error(JsonRpcErrorCode.INTERNAL_ERROR, `${method} failed: ${message}`, undefined, {
      cause: error,
    });
  }
}

/** A shallow copy without the keys whose value is undefined (they are absent on the wire). */
export function dropUndefined(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) if (value !== undefined) out[key] = value;
  return out;
}
