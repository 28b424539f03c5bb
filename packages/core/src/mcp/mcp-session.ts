import { currentInvoke } from "../context/invoke-context.js";
import type { ReverseChannel } from "../context/reverse-channel.js";
import { InvalidParamsError } from "../errors/invalid-params-error.js";
import { MethodNotFoundError } from "../errors/method-not-found-error.js";
import { RpcError } from "../errors/rpc-error.js";
import { UnknownToolError } from "../errors/unknown-tool-error.js";
import type { Logger } from "../log/logger.js";
import { isObject } from "../manifest/manifest-issues.js";
import type { IncomingRequest, RequestOptions } from "../rpc/peer.js";
import type { ObjectTypeSchema } from "../schema/schema.js";
import type { InvokeRun } from "../server/invoke-run.js";
import { traceContextOfMeta } from "../telemetry/trace-context.js";
import { JsonRpcErrorCode } from "../wire/error-codes.js";
import type { InitializeParams, InvokeParams, InvokeResult } from "../wire/invoke.js";
import type { Manifest } from "../wire/manifest.js";
import { callToolResult, invalidArgumentsResult, type McpCallToolResult } from "./call-result.js";
import { type McpFallback, type McpServerCapabilities, mcpServerCapabilities } from "./fallback.js";
import { fitCallResult } from "./frame-cap.js";
import { InputRequiredFlow, type McpInputRequiredResult, type Round } from "./input-required.js";
import { type OutputSchema, toolEntry } from "./input-schema.js";
import { mcpReverseChannel } from "./mcp-channel.js";
import {
  isModernRevision,
  MODERN_MCP_PROTOCOL_VERSIONS,
  type ModernEnvelope,
  modernEnvelope,
  modernResult,
  speaksModern,
  unsupportedRevisionError,
} from "./modern.js";
import { listenForProgress, type ProgressUpdate } from "./progress.js";
import { newRequestStateSeal, type RequestStateSeal } from "./request-state.js";
import { toolFailureResult } from "./tool-failure.js";
import {
  featuresOf,
  LATEST_MCP_PROTOCOL_VERSION,
  type McpFeatures,
  type McpProtocolVersion,
  negotiateMcpVersion,
} from "./versions.js";

/** What an MCP session uses of the plugin server it fronts. */
export interface McpServerSide {
  readonly manifest: Manifest;
  /** Each tool's input schema value, by tool name (see `PluginDefinition.inputSchemas`). */
  readonly inputSchemas?: Readonly<Record<string, ObjectTypeSchema>>;
  /** Each tool's result schema, by tool name (see `PluginDefinition.outputSchemas`). */
  readonly outputSchemas?: Readonly<Record<string, OutputSchema>>;
  readonly log: Logger;
  /**
   * Runs one invoke on the server's own path (concurrency, deadline, stop); `watch` is
   * given the invoke's run as soon as it exists, so a cancellation can abort it.
   */
  invoke(params: InvokeParams, watch: (run: InvokeRun) => void): InvokeResult | Promise<InvokeResult>;
  /** Sends a request to the client. */
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  /** Sends a notification to the client. */
  notify(method: string, params: unknown): void;
  /** The plugin's `onInitialize` hook, if any. */
  onInitialize?: (params: InitializeParams) => void | Promise<void>;
  /** Answers the reverse families MCP lacks; without one they are refused. */
  fallback?: McpFallback;
}

/** The result of MCP `initialize`. */
export interface McpInitializeResult {
  protocolVersion: McpProtocolVersion;
  capabilities: McpServerCapabilities;
  serverInfo: { name: string; version: string; title?: string };
}

/**
 * The result of MCP `server/discover` (2026-07-28), before the era's stamps (`_meta` names
 * the server). Only modern revisions are listed: older ones are negotiated by `initialize`.
 */
export interface McpDiscoverResult {
  supportedVersions: string[];
  capabilities: McpServerCapabilities;
}

/** The two eras of MCP: `initialize` once (legacy) or a `_meta` envelope on every request (modern). */
type McpEra = "legacy" | "modern";

/** One `tools/call` on its way: its run, and whether the client cancelled it. */
interface CallInFlight {
  run?: InvokeRun;
  cancelled: boolean;
}

/**
 * A modern-era call that may span several `tools/call` requests: its tool, the
 * capabilities its first request declared (its tool's asks are judged by them, not by
 * another caller's) and the rounds of its asks.
 */
interface ModernCall {
  readonly tool: string;
  readonly capabilities: Record<string, unknown>;
  readonly flow: InputRequiredFlow;
}

/**
 * Told which call (by invoke id) a request serves, before its tool runs: the transport
 * routes the call's progress and asks to that request's answer, and cancels that call
 * when the request's client goes away.
 */
export type CallBinding = (invokeId: string) => void;

/**
 * The Model Context Protocol side of a plugin server: `initialize`, `ping`, `tools/list`
 * and `tools/call` answered from the same manifest and handlers as Executa's `describe`
 * and `invoke`, and `notifications/cancelled` aborting the call's `ctx.signal`.
 */
export class McpSession {
  /** The reverse channel tools get under MCP (see {@link mcpReverseChannel}). */
  readonly channel: ReverseChannel;
  private version: McpProtocolVersion = LATEST_MCP_PROTOCOL_VERSION;
  private features: McpFeatures = featuresOf(LATEST_MCP_PROTOCOL_VERSION);
  private clientCapabilities: Record<string, unknown> | undefined;
  private era: McpEra = "legacy";
  /** Every call gets its own invoke id (`mcp-N`): request ids are the client's and may repeat. */
  private callCount = 0;
  /** Calls in flight, by invoke id. */
  private readonly calls = new Map<string, CallInFlight>();
  /** The invoke a request in flight serves, by request id: what `notifications/cancelled` names. */
  private readonly invokeOfRequest = new Map<string, string>();
  /** Modern-era calls whose tool may ask the client, by invoke id. */
  private readonly modernCalls = new Map<string, ModernCall>();
  private seal: Promise<RequestStateSeal> | undefined;

  constructor(private readonly server: McpServerSide) {
    this.channel = mcpReverseChannel({
      request: (method, params, options) => {
        const flow = this.flowOfRunningInvoke();
        return flow ? flow.ask(method, params, options?.signal) : server.request(method, params, options);
      },
      clientCapabilities: () => this.modernCallOfRunningInvoke()?.capabilities ?? this.clientCapabilities,
      hostCapabilities: server.manifest.host_capabilities ?? [],
      pluginName: server.manifest.name,
      fallback: server.fallback,
    });
  }

  /**
   * Answers one MCP request or handles one notification. A request carrying the modern
   * `_meta` envelope (or `server/discover`) is answered in the modern era's shape; one
   * without an envelope in the era the session is in (an `initialize` makes it legacy).
   */
  handle(request: IncomingRequest, bind?: CallBinding): unknown {
    if (request.id === undefined || !this.enterEra(request)) return this.answer(request, bind);
    const answer = this.answer(request, bind);
    const { name, version } = this.server.manifest;
    const stamp = (result: unknown) => modernResult(request.method, result, { name, version });
    return answer instanceof Promise ? answer.then(stamp) : stamp(answer);
  }

  /** Whether the request is answered in the modern era; takes its envelope's capabilities. */
  private enterEra(request: IncomingRequest): boolean {
    if (request.method === "initialize") {
      this.era = "legacy";
      return false;
    }
    const envelope = modernEnvelope(request.params);
    if (envelope === undefined) return request.method === "server/discover" || this.era === "modern";
    if (!isModernRevision(envelope.protocolVersion)) return false;
    if (!speaksModern(envelope.protocolVersion)) throw unsupportedRevisionError(envelope.protocolVersion);
    this.enterModern(envelope);
    return true;
  }

  private enterModern(envelope: ModernEnvelope): void {
    if (this.era !== "modern") {
      const client = envelope.clientInfo ?? {};
      this.server.log.info(
        `MCP client ${client.name ?? "?"} ${client.version ?? ""} speaks ${envelope.protocolVersion}`,
      );
    }
    this.era = "modern";
    this.features = featuresOf(LATEST_MCP_PROTOCOL_VERSION);
    // Sampling rides in input_required results in this era (see InputRequiredFlow).
    this.clientCapabilities = envelope.clientCapabilities;
  }

  private answer(request: IncomingRequest, bind?: CallBinding): unknown {
    switch (request.method) {
      case "server/discover":
        return this.discover();
      case "initialize":
        return this.initialize(request.params);
      case "ping":
        return {};
      case "tools/list":
        return {
          tools: this.server.manifest.tools.map((tool) =>
            toolEntry(tool, this.features.structuredContent, {
              input: this.server.inputSchemas?.[tool.name],
              output: this.server.outputSchemas?.[tool.name],
            }),
          ),
        };
      case "tools/call":
        return this.call(request, bind);
      case "notifications/cancelled":
        this.cancel(request.params);
        return undefined;
      case "notifications/initialized":
        return undefined;
      default:
        throw new MethodNotFoundError(request.method);
    }
  }

  /** `server/discover`: the modern revisions spoken and the server's capabilities. */
  private discover(): McpDiscoverResult {
    return {
      supportedVersions: [...MODERN_MCP_PROTOCOL_VERSIONS],
      capabilities: mcpServerCapabilities(this.server.fallback),
    };
  }

  /** Answers at once unless the plugin has an `onInitialize` hook to wait for. */
  private initialize(raw: unknown): McpInitializeResult | Promise<McpInitializeResult> {
    const params = (isObject(raw) ? raw : {}) as InitializeParams;
    this.version = negotiateMcpVersion(params.protocolVersion);
    this.features = featuresOf(this.version);
    this.clientCapabilities = isObject(params.capabilities) ? params.capabilities : {};
    const client = params.clientInfo ?? {};
    this.server.log.info(
      `MCP client ${client.name ?? "?"} ${client.version ?? ""} asked for ${String(params.protocolVersion)}; ` +
        `answering with ${this.version}`,
    );
    const { manifest } = this.server;
    const serverInfo: McpInitializeResult["serverInfo"] = { name: manifest.name, version: manifest.version };
    if (this.features.structuredContent && manifest.display_name) serverInfo.title = manifest.display_name;
    const result = {
      protocolVersion: this.version,
      capabilities: mcpServerCapabilities(this.server.fallback),
      serverInfo,
    };
    const hook = this.server.onInitialize;
    return hook ? Promise.resolve(hook(params)).then(() => result) : result;
  }

  /** The modern-era call whose tool code is running now, if any. */
  private modernCallOfRunningInvoke(): ModernCall | undefined {
    const id = this.era === "modern" ? currentInvoke()?.invokeId : undefined;
    return id === undefined ? undefined : this.modernCalls.get(id);
  }

  private flowOfRunningInvoke(): InputRequiredFlow | undefined {
    return this.modernCallOfRunningInvoke()?.flow;
  }

  /**
   * `tools/call`. In the modern era a call may take several rounds: its tool's asks of
   * the client (sampling) end a round with `input_required`, and a later `tools/call`
   * carrying the round's `requestState` resumes it.
   */
  private call(request: IncomingRequest, bind?: CallBinding): unknown {
    if (this.era !== "modern" || request.id === undefined) return this.run(request, bind);
    const params = isObject(request.params) ? request.params : {};
    if (typeof params.requestState === "string") return this.resume(request, params.requestState, bind);
    return this.startModern(request, bind);
  }

  private requestStateSeal(): Promise<RequestStateSeal> {
    this.seal ??= newRequestStateSeal();
    return this.seal;
  }

  /** The first `tools/call` of a modern-era call: runs it, answering rounds until its result. */
  private async startModern(
    request: IncomingRequest,
    bind?: CallBinding,
  ): Promise<McpCallToolResult | McpInputRequiredResult> {
    const seal = await this.requestStateSeal();
    const { name } = parseCallParams(request.params);
    const invokeId = this.nextInvokeId();
    const flow = new InputRequiredFlow((round) => seal.seal({ callId: invokeId, round }, name));
    const capabilities = modernEnvelope(request.params)?.clientCapabilities ?? this.clientCapabilities ?? {};
    this.modernCalls.set(invokeId, { tool: name, capabilities, flow });
    const done = () => this.modernCalls.delete(invokeId);
    return new Promise((resolve, reject) => {
      flow.open(this.round(request, invokeId, resolve, reject));
      let answer: McpCallToolResult | Promise<McpCallToolResult>;
      try {
        answer = this.run(request, bind, invokeId);
      } catch (error) {
        done();
        throw error;
      }
      Promise.resolve(answer).then(
        (result) => {
          done();
          flow.finish(result);
        },
        (error: unknown) => {
          done();
          flow.fail(error);
        },
      );
    });
  }

  /**
   * A `tools/call` carrying `requestState`: the client's answers to a call's asks. The
   * state must be one this server sealed for this tool, of a call in progress, and not
   * used before.
   */
  private async resume(
    request: IncomingRequest,
    state: string,
    bind?: CallBinding,
  ): Promise<McpCallToolResult | McpInputRequiredResult> {
    const { name } = parseCallParams(request.params);
    const claim = (await this.requestStateSeal()).open(state, name);
    if (claim === undefined) {
      throw badRequestState(
        `requestState was not issued by this server for tool "${name}" (it is altered, made up, or from another tool or server); call the tool again without requestState`,
        "not issued by this server for this tool",
      );
    }
    const call = this.modernCalls.get(claim.callId);
    if (!call) {
      throw badRequestState(
        "requestState names no tool call in progress (it finished, failed or timed out); call the tool again without requestState",
        "unknown or expired",
      );
    }
    const params = request.params as Record<string, unknown>;
    return new Promise((resolve, reject) => {
      this.track(request, claim.callId);
      bind?.(claim.callId);
      const round = this.round(request, claim.callId, resolve, reject);
      if (!call.flow.resume(claim.round, params.inputResponses, round)) {
        this.untrack(request, claim.callId);
        reject(
          badRequestState(
            `requestState of round ${claim.round} was used already (each is good for one tools/call); answer the latest input_required, or call the tool again without requestState`,
            "already used",
          ),
        );
      }
    });
  }

  /** One round of a modern call, answered on `request`, which no longer names the call once answered. */
  private round(
    request: IncomingRequest,
    invokeId: string,
    resolve: (answer: McpCallToolResult | McpInputRequiredResult) => void,
    reject: (error: unknown) => void,
  ): Round {
    return {
      resolve: (answer) => {
        this.untrack(request, invokeId);
        resolve(answer);
      },
      reject: (error) => {
        this.untrack(request, invokeId);
        reject(error);
      },
    };
  }

  private nextInvokeId(): string {
    return `mcp-${++this.callCount}`;
  }

  /** Notes that `request` is now served by invoke `invokeId`, so a cancellation naming it reaches that call. */
  private track(request: IncomingRequest, invokeId: string): void {
    const key = idKey(request.id);
    if (key !== undefined) this.invokeOfRequest.set(key, invokeId);
  }

  private untrack(request: IncomingRequest, invokeId: string): void {
    const key = idKey(request.id);
    if (key !== undefined && this.invokeOfRequest.get(key) === invokeId) this.invokeOfRequest.delete(key);
  }

  /**
   * Runs `tools/call` as an invoke and answers its result in MCP's shape. A cancelled call
   * is never answered, as MCP asks.
   */
  private run(
    request: IncomingRequest,
    bind?: CallBinding,
    invokeId = this.nextInvokeId(),
  ): McpCallToolResult | Promise<McpCallToolResult> {
    const { name, args } = parseCallParams(request.params);
    const entry: CallInFlight = { cancelled: false };
    const wire = { invoke_id: invokeId };
    const invoke: InvokeParams = {
      tool: name,
      arguments: args,
      context: wire,
      _meta: traceContextOfMeta(request.params),
    };
    this.track(request, invokeId);
    bind?.(invokeId);
    this.listenForProgress(request.params, wire);
    const forget = () => {
      this.untrack(request, invokeId);
      if (this.calls.get(invokeId) === entry) this.calls.delete(invokeId);
    };
    let answer: InvokeResult | Promise<InvokeResult>;
    try {
      answer = this.server.invoke(invoke, (run) => {
        entry.run = run;
        this.calls.set(invokeId, entry);
      });
    } catch (error) {
      forget();
      return this.failure(error);
    }
    if (!(answer instanceof Promise)) {
      forget();
      return fitCallResult(callToolResult(answer, this.features));
    }
    return new Promise((resolve, reject) => {
      answer.then(
        (result) => {
          forget();
          if (!entry.cancelled) resolve(fitCallResult(callToolResult(result, this.features)));
        },
        (error: unknown) => {
          forget();
          if (entry.cancelled) return;
          try {
            resolve(this.failure(error));
          } catch (answered) {
            reject(answered);
          }
        },
      );
    });
  }

  /** When the call carries `_meta.progressToken`, the tool's progress reports go to the client. */
  private listenForProgress(params: unknown, wire: object): void {
    const meta = isObject(params) && isObject(params._meta) ? params._meta : undefined;
    const token = meta?.progressToken;
    if (typeof token !== "string" && typeof token !== "number") return;
    const withMessage = this.version !== "2024-11-05";
    listenForProgress(wire, ({ progress, total, message }: ProgressUpdate) => {
      const params: Record<string, unknown> = { progressToken: token, progress };
      if (total !== undefined) params.total = total;
      if (withMessage && message !== undefined) params.message = message;
      this.server.notify("notifications/progress", params);
    });
  }

  /**
   * A failed invoke as MCP answers it: argument errors per the revision, an unknown tool
   * as -32602, the tool's own failures as results the model can read (see
   * {@link toolFailureResult}); anything else as on the Executa side (thrown, so the peer
   * answers its code).
   */
  private failure(error: unknown): McpCallToolResult {
    if (error instanceof InvalidParamsError && this.features.argumentErrorsAsToolErrors) {
      return invalidArgumentsResult(error);
    }
    if (error instanceof UnknownToolError) {
      throw new RpcError(JsonRpcErrorCode.INVALID_PARAMS, error.message, error.data);
    }
    const result = toolFailureResult(error);
    if (result) return result;
    throw error;
  }

  /** `notifications/cancelled`: aborts the signal of the call its request names and drops its answer. */
  private cancel(raw: unknown): void {
    if (!isObject(raw)) return;
    const key = idKey(raw.requestId as IncomingRequest["id"]);
    const invokeId = key === undefined ? undefined : this.invokeOfRequest.get(key);
    if (invokeId !== undefined)
      this.cancelCall(invokeId, typeof raw.reason === "string" ? raw.reason : undefined);
  }

  /**
   * Cancels the call running as invoke `invokeId`: its tool's signal aborts, its answer is
   * dropped, and a modern call's pending rounds end.
   */
  cancelCall(invokeId: string, reason?: string): void {
    const entry = this.calls.get(invokeId);
    this.modernCalls.delete(invokeId);
    if (!entry?.run) return;
    entry.cancelled = true;
    const why = reason === undefined ? "" : `: ${reason}`;
    const error = new Error(`cancelled by the MCP client${why}`);
    error.name = "AbortError";
    this.server.log.info(`tools/call of ${entry.run.tool} cancelled by the client${why}`);
    entry.run.fail(error, true);
  }
}

/** A request id as a map key that keeps `1` and `"1"` apart; undefined for no usable id. */
export function idKey(id: IncomingRequest["id"]): string | undefined {
  if (typeof id === "number") return `n:${id}`;
  if (typeof id === "string") return `s:${id}`;
  return undefined;
}

function badRequestState(message: string, why: string): InvalidParamsError {
  return new InvalidParamsError(message, [{ path: "requestState", message: why }]);
}

function parseCallParams(raw: unknown): { name: string; args: Record<string, unknown> } {
  if (!isObject(raw) || typeof raw.name !== "string" || raw.name === "") {
    throw new InvalidParamsError("tools/call params must name the tool in a string `name`", [
      { path: "name", message: "required string", expected: "string" },
    ]);
  }
  const args = raw.arguments;
  if (args !== undefined && args !== null && !isObject(args)) {
    throw new InvalidParamsError("tools/call `arguments` must be an object", [
      { path: "arguments", message: "must be an object", expected: "object" },
    ]);
  }
  return { name: raw.name, args: (args ?? {}) as Record<string, unknown> };
}
