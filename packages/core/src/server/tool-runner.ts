import { InvokeContextImpl } from "../context/create-context.js";
import { runWithInvoke } from "../context/invoke-context.js";
import type { ReverseChannel } from "../context/reverse-channel.js";
import { RpcError } from "../errors/rpc-error.js";
import { ToolError } from "../errors/tool-error.js";
import { toolThrewMessage } from "../errors/tool-threw.js";
import type { Logger } from "../log/logger.js";
import type { CallMethod, CallTrace, Telemetry } from "../telemetry/telemetry.js";
import { traceCall } from "../telemetry/trace-call.js";
import { traceContextOfInvoke } from "../telemetry/trace-context.js";
import { JsonRpcErrorCode } from "../wire/error-codes.js";
import type { InvokeParams, InvokeResult } from "../wire/invoke.js";
import type { CredentialSpec, ToolManifest } from "../wire/manifest.js";
import type { ToolHandler } from "./definition.js";
import type { InvokeRun } from "./invoke-run.js";
import type { TurnBudget } from "./turn-budget.js";

/** A tool as the server holds it: its manifest entry, its handler and its logger. */
export interface ServedTool {
  spec: ToolManifest;
  handler: ToolHandler;
  log: Logger;
}

/** An invoke that passed the checks on arrival, with what running it needs. */
export interface AdmittedInvoke {
  tool: ServedTool;
  params: InvokeParams;
  /** The id its log lines and reverse calls carry, if the host gave one. */
  invokeId: string | undefined;
  arrivedAt: number;
  /** When it is answered with a timeout: the tool's timeout from arrival, or the host's deadline if sooner. */
  deadlineMs: number;
  /** The reverse channel of the client that sent it, when not the server's one peer (MCP over HTTP). */
  channel?: ReverseChannel;
  /** The request it came as (`invoke` when not said), for telemetry. */
  method?: CallMethod;
}

/** What running tools needs from the server. */
export interface ToolRunnerOptions {
  log: Logger;
  /** Charged with each handler's synchronous time. */
  turn: TurnBudget;
  /** The manifest's credentials, which the context reads from the invoke. */
  declaredCredentials: readonly CredentialSpec[];
  /** The reverse channel of an invoke that came without its own (the protocol's, once chosen). */
  channel: () => ReverseChannel;
}

/**
 * Runs a tool's handler in its invoke's context and makes its answer: at once for a
 * plain value or a synchronous throw, as a promise for a handler that returned one.
 */
export class ToolRunner {
  /** Records each call when OpenTelemetry is configured; none otherwise. */
  telemetry: Telemetry | undefined;

  constructor(private readonly options: ToolRunnerOptions) {}

  /**
   * The answer of `invoke`: the handler's value as a success, a `ToolError` as
   * `success: false`. What is not the tool's own failure (see `failure`) is thrown or rejects.
   */
  run(invoke: AdmittedInvoke, run: InvokeRun): InvokeResult | Promise<InvokeResult> {
    if (this.telemetry === undefined) return this.answer(invoke, run);
    const trace = this.telemetry.startCall(
      invoke.method ?? "invoke",
      invoke.tool.spec.name,
      traceContextOfInvoke(invoke.params),
    );
    return traceCall(trace, () => this.answer(invoke, run, trace));
  }

  private answer(
    invoke: AdmittedInvoke,
    run: InvokeRun,
    trace?: CallTrace,
  ): InvokeResult | Promise<InvokeResult> {
    const name = invoke.tool.spec.name;
    const started = performance.now();
    let outcome: unknown;
    try {
      outcome = this.callHandler(invoke, run, started, trace);
    } catch (error) {
      return this.failure(name, error, started);
    }
    if (!isThenable(outcome)) return success(outcome, started);
    return Promise.resolve(outcome).then(
      (data) => success(data, started),
      (error: unknown) => this.failure(name, error, started),
    );
  }

  /** Builds the invoke's context and calls the handler in it; returns what the handler returned. */
  private callHandler(invoke: AdmittedInvoke, run: InvokeRun, started: number, trace?: CallTrace): unknown {
    const { tool, params } = invoke;
    const channel = invoke.channel ?? this.options.channel();
    const context = new InvokeContextImpl(
      {
        tool: tool.spec.name,
        invokeId: invoke.invokeId,
        deadlineMs: invoke.deadlineMs,
        wire: params.context ?? {},
        declaredCredentials: this.options.declaredCredentials,
        log: tool.log,
        channel: trace ? trace.channel(channel) : channel,
      },
      run,
    );
    try {
      return runWithInvoke(context, () => tool.handler(params.arguments ?? {}, context));
    } finally {
      this.options.turn.charge(performance.now() - started);
    }
  }

  /** A tool's exception as its answer: ToolError → success:false, RpcError as is, else -32603. */
  private failure(name: string, error: unknown, started: number): InvokeResult {
    if (error instanceof ToolError) {
      const result: InvokeResult = {
        success: false,
        error: error.message,
        duration_ms: elapsedSince(started),
      };
      if (error.data !== undefined) result.data = error.data;
      return result;
    }
    if (error instanceof RpcError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    this.options.log.error(
      `tool ${name} threw: ${error instanceof Error ? (error.stack ?? message) : message}`,
    );
    throw new RpcError(JsonRpcErrorCode.INTERNAL_ERROR, toolThrewMessage(name, message));
  }
}

/** Whether `value` is a promise or another thenable. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

function elapsedSince(started: number): number {
  return Math.round(performance.now() - started);
}

function success(data: unknown, started: number): InvokeResult {
  return { success: true, data: data === undefined ? null : data, duration_ms: elapsedSince(started) };
}
