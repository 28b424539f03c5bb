import { currentInvoke } from "../context/invoke-context.js";
import type { ReverseChannel } from "../context/reverse-channel.js";
import { InvalidParamsError } from "../errors/invalid-params-error.js";
import { MethodNotFoundError } from "../errors/method-not-found-error.js";
import { RpcError } from "../errors/rpc-error.js";
import { UnknownToolError } from "../errors/unknown-tool-error.js";
import type { Logger } from "../log/logger.js";
import { isObject } from "../manifest/manifest-issues.js";
import type { IncomingRequest, RequestOptions } from "../rpc/peer.js";
import { uniqueId } from "../rpc/unique-id.js";
import type { InvokeRun } from "../server/invoke-run.js";
import { JsonRpcErrorCode } from "../wire/error-codes.js";
import type { InitializeParams, InvokeParams, InvokeResult } from "../wire/invoke.js";
import type { Manifest } from "../wire/manifest.js";
import { callToolResult, invalidArgumentsResult, type McpCallToolResult } from "./call-result.js";
import { type McpFallback, type McpServerCapabilities, mcpServerCapabilities } from "./fallback.js";
import { fitCallResult } from "./frame-cap.js";
import { InputRequiredFlow, type McpInputRequiredResult } from "./input-required.js";
import { type OutputSchema, toolEntry } from "./input-schema.js";
import { mcpReverseChannel } from "./mcp-channel.js";
import {
  ALL_MCP_PROTOCOL_VERSIONS,
  isModernRevision,
  MODERN_MCP_PROTOCOL_VERSIONS,
  type ModernEnvelope,
  modernEnvelope,
  modernResult,
  speaksModern,
  UNSUPPORTED_PROTOCOL_VERSION_CODE,
} from "./modern.js";
import { listenForProgress, type ProgressUpdate } from "./progress.js";
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
  private readonly calls = new Map<string, CallInFlight>();
  private era: McpEra = "legacy";
  /** Modern-era calls whose tool may ask the client, by `requestState` and by invoke id. */
  private readonly flowsByState = new Map<string, InputRequiredFlow>();
  private readonly flowsByInvoke = new Map<string, InputRequiredFlow>();

  constructor(private readonly server: McpServerSide) {
    this.channel = mcpReverseChannel({
      request: (method, params, options) => {
        const flow = this.flowOfRunningInvoke();
        return flow ? flow.ask(method, params, options?.signal) : server.request(method, params, options);
      },
      clientCapabilities: () => this.clientCapabilities,
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
  handle(request: IncomingRequest): unknown {
    if (request.id === undefined || !this.enterEra(request)) return this.answer(request);
    const answer = this.answer(request);
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
    if (!speaksModern(envelope.protocolVersion)) {
      throw new RpcError(
        UNSUPPORTED_PROTOCOL_VERSION_CODE,
        `Unsupported protocol version ${envelope.protocolVersion}; this server speaks ${ALL_MCP_PROTOCOL_VERSIONS.join(", ")}`,
        { supported: [...ALL_MCP_PROTOCOL_VERSIONS], requested: envelope.protocolVersion },
      );
    }
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

  private answer(request: IncomingRequest): unknown {
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
            toolEntry(tool, this.features.structuredContent, this.server.outputSchemas?.[tool.name]),
          ),
        };
      case "tools/call":
        return this.call(request);
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

  /** The input-required flow of the modern-era call whose tool code is running now, if any. */
  private flowOfRunningInvoke(): InputRequiredFlow | undefined {
    const id = this.era === "modern" ? currentInvoke()?.invokeId : undefined;
    return id === undefined ? undefined : this.flowsByInvoke.get(id);
  }

  /**
   * `tools/call`. In the modern era a call may take several rounds: its tool's asks of
   * the client (sampling) end a round with `input_required`, and a later `tools/call`
   * carrying the `requestState` resumes it.
   */
  private call(request: IncomingRequest): unknown {
    if (this.era !== "modern") return this.run(request);
    const params = isObject(request.params) ? request.params : {};
    if (typeof params.requestState === "string")
      return this.resume(params.requestState, params.inputResponses);
    const key = idKey(request.id);
    if (key === undefined) return this.run(request);
    const flow = new InputRequiredFlow(uniqueId());
    const invokeId = `mcp-${key}`;
    this.flowsByInvoke.set(invokeId, flow);
    this.flowsByState.set(flow.token, flow);
    const done = () => {
      this.flowsByInvoke.delete(invokeId);
      this.flowsByState.delete(flow.token);
    };
    return new Promise<McpCallToolResult | McpInputRequiredResult>((resolve, reject) => {
      flow.open({ resolve, reject });
      let answer: McpCallToolResult | Promise<McpCallToolResult>;
      try {
        answer = this.run(request);
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

  /** A `tools/call` carrying `requestState`: the client's answers to a call's asks. */
  private resume(state: string, responses: unknown): Promise<McpCallToolResult | McpInputRequiredResult> {
    const flow = this.flowsByState.get(state);
    if (!flow) {
      throw new InvalidParamsError(
        `requestState "${state}" names no tool call in progress (it finished, failed or timed out); call the tool again without requestState`,
        [{ path: "requestState", message: "unknown or expired" }],
      );
    }
    return new Promise((resolve, reject) => flow.resume(responses, { resolve, reject }));
  }

  /**
   * Runs `tools/call` as an invoke and answers its result in MCP's shape. A cancelled call
   * is never answered, as MCP asks.
   */
  private run(request: IncomingRequest): McpCallToolResult | Promise<McpCallToolResult> {
    const { name, args } = parseCallParams(request.params);
    const key = idKey(request.id);
    const entry: CallInFlight = { cancelled: false };
    const wire = key === undefined ? {} : { invoke_id: `mcp-${key}` };
    const invoke: InvokeParams = { tool: name, arguments: args, context: wire };
    this.listenForProgress(request.params, wire);
    let answer: InvokeResult | Promise<InvokeResult>;
    try {
      answer = this.server.invoke(invoke, (run) => {
        entry.run = run;
        if (key !== undefined) this.calls.set(key, entry);
      });
    } catch (error) {
      this.forget(key, entry);
      return this.failure(error);
    }
    if (!(answer instanceof Promise)) {
      this.forget(key, entry);
      return fitCallResult(callToolResult(answer, this.features));
    }
    return new Promise((resolve, reject) => {
      answer.then(
        (result) => {
          this.forget(key, entry);
          if (!entry.cancelled) resolve(fitCallResult(callToolResult(result, this.features)));
        },
        (error: unknown) => {
          this.forget(key, entry);
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

  private forget(key: string | undefined, entry: CallInFlight): void {
    if (key !== undefined && this.calls.get(key) === entry) this.calls.delete(key);
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

  /** `notifications/cancelled`: aborts the call's signal and drops its answer. */
  private cancel(raw: unknown): void {
    if (!isObject(raw)) return;
    const key = idKey(raw.requestId as IncomingRequest["id"]);
    const entry = key === undefined ? undefined : this.calls.get(key);
    if (!entry?.run) return;
    entry.cancelled = true;
    const reason = typeof raw.reason === "string" ? `: ${raw.reason}` : "";
    const error = new Error(`cancelled by the MCP client${reason}`);
    error.name = "AbortError";
    this.server.log.info(`tools/call of ${entry.run.tool} cancelled by the client${reason}`);
    entry.run.fail(error, true);
  }
}

/** A request id as a map key that keeps `1` and `"1"` apart; undefined for no usable id. */
export function idKey(id: IncomingRequest["id"]): string | undefined {
  if (typeof id === "number") return `n:${id}`;
  if (typeof id === "string") return `s:${id}`;
  return undefined;
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
