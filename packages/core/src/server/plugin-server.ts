import type { ReverseChannel } from "../context/reverse-channel.js";
import { HostInputClosedError } from "../errors/host-input-closed.js";
import { MethodNotFoundError } from "../errors/method-not-found-error.js";
import { RpcError } from "../errors/rpc-error.js";
import { ToolTimeoutError } from "../errors/timeout-error.js";
import { UnknownToolError } from "../errors/unknown-tool-error.js";
import { createLogger, type Logger } from "../log/logger.js";
import type { McpServeOptions } from "../mcp/fallback.js";
import { type McpServerSide, McpSession } from "../mcp/mcp-session.js";
import { detectDialect, type FirstFrameDialect, type ProtocolSetting } from "../mcp/protocol-choice.js";
import { McpStdioGate } from "../mcp/stdio-gate.js";
import { releaseTransportDir } from "../rpc/file-transport.js";
import { type IncomingRequest, JsonRpcPeer, type RequestOptions } from "../rpc/peer.js";
import { loadTelemetry, telemetryConfigured } from "../telemetry/load-telemetry.js";
import type { CallMethod } from "../telemetry/telemetry.js";
import type { Transport } from "../transport/transport.js";
import { checkArgumentDepth } from "../wire/argument-depth.js";
import { JsonRpcErrorCode, ServerErrorCode } from "../wire/error-codes.js";
import {
  HEALTH_STATUSES,
  type HealthResult,
  type InitializeParams,
  type InitializeResult,
  type InvokeResult,
  type ProtocolVersion,
} from "../wire/invoke.js";
import {
  APP_RESULT_LIMIT_BYTES,
  DEFAULT_CONCURRENCY,
  DEFAULT_INVOKE_TIMEOUT_S,
  DEFAULT_SHUTDOWN_GRACE_MS,
  HEALTH_TIMEOUT_MS,
} from "../wire/limits.js";
import type { PluginDefinition, ServerOptions } from "./definition.js";
import { InFlightRuns } from "./in-flight.js";
import { invokeIdOf, parseInvokeParams } from "./invoke-params.js";
import { InvokeRun } from "./invoke-run.js";
import { ConcurrencyLimiter } from "./limiter.js";
import { clientCapabilitiesFor, negotiateVersion } from "./negotiation.js";
import { type AdmittedInvoke, isThenable, type ServedTool, ToolRunner } from "./tool-runner.js";
import { TurnBudget } from "./turn-budget.js";

/**
 * Synchronous tool code allowed per event-loop turn before further invokes wait for the
 * next turn, so `health`, timers and signals are handled between CPU-bound invokes.
 */
const TURN_BUDGET_MS = 20;

/** Why a server stopped. */
export type StopReason = "eof" | "signal" | "shutdown" | "output-closed" | "requested";

/** The state of the `initialize` handshake. */
export interface Negotiation {
  /** "2.0" after a v2 `initialize`; "1.1" before or without one. */
  readonly protocolVersion: ProtocolVersion;
  /** Whether the host sent `initialize` at all. */
  readonly initialized: boolean;
}

/**
 * Serves one plugin definition over JSON-RPC: `initialize`, `describe`, `invoke`,
 * `health`, `shutdown`. Invokes run concurrently up to a limit, each with its own
 * deadline and context; everything else is answered at once, never queued.
 */
export class PluginServer {
  /** Resolves with the reason once the server has stopped and flushed its output. */
  readonly done: Promise<StopReason>;
  private readonly peer: JsonRpcPeer;
  private readonly log: Logger;
  private readonly limiter: ConcurrencyLimiter;
  private readonly turn = new TurnBudget(TURN_BUDGET_MS);
  private readonly tools: Map<string, ServedTool>;
  private readonly runner: ToolRunner;
  private readonly inFlight: InFlightRuns;
  private readonly onRunFinished = (run: InvokeRun) => {
    if (run.started) this.limiter.release();
    this.inFlight.finished(run);
  };
  private readonly mcpOptions: McpServeOptions;
  private channel: ReverseChannel;
  /** Set once the protocol is chosen and it is MCP: it answers every request from then on. */
  private mcp: McpSession | undefined;
  /** What MCP forbids on this server's own streams, refused before the MCP session sees it. */
  private readonly mcpGate = new McpStdioGate();
  private protocolSetting: ProtocolSetting | undefined;
  private negotiation: Negotiation = { protocolVersion: "1.1", initialized: false };
  private startup: Promise<void> | undefined;
  private startupError: Error | undefined;
  private starting = false;
  private stopped: Promise<StopReason> | undefined;
  private resolveDone!: (reason: StopReason) => void;

  constructor(
    private readonly definition: PluginDefinition,
    io: {
      transport: Transport;
      log?: Logger;
      options?: ServerOptions;
      protocol?: ProtocolSetting;
    },
  ) {
    const options = { ...definition.options, ...io.options };
    this.log = io.log ?? createLogger(definition.manifest.name);
    this.limiter = new ConcurrencyLimiter(options.concurrency ?? DEFAULT_CONCURRENCY, () => this.turn.spent);
    this.inFlight = new InFlightRuns(this.log, options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS);
    this.mcpOptions = options.mcp ?? {};
    this.tools = new Map(
      definition.manifest.tools.map((spec) => {
        const handler = definition.handlers[spec.name];
        if (!handler)
          throw new Error(`plugin ${definition.manifest.name}: tool "${spec.name}" has no handler`);
        return [spec.name, { spec, handler, log: this.log.child(spec.name) }];
      }),
    );
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
    this.peer = new JsonRpcPeer({
      transport: io.transport,
      handleRequest: (request) => this.handle(request),
      log: this.log,
      maxFrameBytes: options.maxFrameBytes,
      fileTransportThresholdBytes: options.fileTransportThresholdBytes,
      fileTransportDir: options.fileTransportDir,
      onResultSize: (method, bytes) => {
        if (method === "invoke" && bytes > APP_RESULT_LIMIT_BYTES) {
          this.log.warn(
            `invoke result is ${bytes} bytes, over the ~4 MiB App transport contract (result_too_large in apps)`,
          );
        }
      },
      onInputEnd: () => this.inputEnded(),
      onOutputBroken: () => void this.stop("output-closed"),
      pacing: { deferrable: isToolCall, mustYield: () => this.turn.spent },
    });
    this.channel = {
      request: (method, params, options) => this.peer.request(method, params, options),
      protocolVersion: () => this.negotiation.protocolVersion,
      hostCapabilities: definition.manifest.host_capabilities ?? [],
    };
    this.runner = new ToolRunner({
      log: this.log,
      turn: this.turn,
      declaredCredentials: definition.manifest.credentials ?? [],
      channel: () => this.channel,
    });
    this.protocolSetting = io.protocol ?? "auto";
    if (this.protocolSetting === "mcp") this.chooseProtocol("mcp", "forced by --mcp / EXECUTA_PROTOCOL");
    this.runStartHook();
  }

  /** The state of the `initialize` handshake. */
  get negotiated(): Negotiation {
    return this.negotiation;
  }

  /** Invokes running or waiting now. */
  get activeInvokes(): number {
    return this.inFlight.size;
  }

  /** True once a stop has begun. */
  get stopping(): boolean {
    return this.stopped !== undefined;
  }

  /** Whether the MCP fallback (when there is one) can serve: its database reachable. */
  async ready(): Promise<boolean> {
    return (await this.mcpOptions.fallback?.ready?.(this.definition.manifest.name)) ?? true;
  }

  /**
   * Sends a reverse call (plugin → host) on the one peer. Capability clients build on
   * this; most code uses `ctx.host` instead.
   */
  request(method: string, params?: unknown, options?: RequestOptions): Promise<unknown> {
    return this.peer.request(method, params, options);
  }

  /**
   * Stops: refuses new invokes (-32099) and answers queued ones so at once, lets running
   * invokes finish within the grace period — still reading input, so the host's replies to
   * their reverse calls arrive — answers what is left with -32099, runs `onStop`, flushes.
   * Idempotent: later calls return the first stop's promise.
   */
  stop(reason: StopReason = "requested"): Promise<StopReason> {
    if (this.stopped) return this.stopped;
    this.stopped = this.shutdown(reason);
    // Requests read but held for a later turn are answered now (invokes with -32099).
    this.peer.releaseHeld();
    return this.stopped;
  }

  /** Input ended: no reply to a reverse call can arrive any more, whether or not a stop began. */
  private inputEnded(): void {
    this.peer.rejectAll(new HostInputClosedError());
    void this.stop("eof");
  }

  private runStartHook(): void {
    const hook = this.definition.onStart;
    // Only configured telemetry loads anything; the server then waits for it like for the hook.
    const telemetry = telemetryConfigured(process.env)
      ? loadTelemetry(this.definition.manifest.name, this.log)
      : undefined;
    if (!hook && !telemetry) return;
    this.starting = true;
    this.startup = (async () => {
      try {
        if (telemetry) this.runner.telemetry = await telemetry;
        await hook?.();
      } catch (error) {
        this.startupError = error instanceof Error ? error : new Error(String(error));
        this.log.error(`start hook failed: ${this.startupError.stack ?? this.startupError.message}`);
      } finally {
        this.starting = false;
      }
    })();
  }

  private handle(request: IncomingRequest): unknown {
    if (this.protocolSetting !== undefined) this.chooseAtFirstFrame(request);
    if (this.mcp) {
      this.mcpGate.check(request);
      return this.mcp.handle(request);
    }
    switch (request.method) {
      case "describe":
        return this.definition.manifest;
      case "initialize":
        return this.initialize(request.params as InitializeParams | undefined);
      case "health":
        return this.health();
      case "invoke":
        return this.invoke(request.params);
      case "shutdown":
        setImmediate(() => void this.stop("shutdown"));
        return {};
      default:
        throw new MethodNotFoundError(request.method);
    }
  }

  /** Picks the protocol from the first frame, unless it was forced; once per process. */
  private chooseAtFirstFrame(request: IncomingRequest): void {
    if (this.protocolSetting === "executa") this.chooseProtocol("executa-v2", "forced by EXECUTA_PROTOCOL");
    else this.chooseProtocol(detectDialect(request), `first frame ${request.method}`);
  }

  /**
   * Serves MCP (see `McpSession`) or Executa from now on. Executa is logged at
   * debug level only, so a host's stderr reads as it did before MCP existed.
   */
  private chooseProtocol(dialect: FirstFrameDialect, why: string): void {
    this.protocolSetting = undefined;
    if (dialect !== "mcp") {
      this.log.debug(`speaking Executa (${why})`);
      return;
    }
    this.log.info(`speaking MCP (${why})`);
    this.peer.disableFileTransport();
    this.mcp = new McpSession({
      manifest: this.definition.manifest,
      inputSchemas: this.definition.inputSchemas,
      outputSchemas: this.definition.outputSchemas,
      log: this.log,
      invoke: (params, watch) => this.invoke(params, watch, undefined, "tools/call"),
      request: (method, params, options) => this.peer.request(method, params, options),
      notify: (method, params) => this.peer.notify(method, params),
      onInitialize: this.definition.onInitialize,
      fallback: this.mcpOptions.fallback,
    });
    this.channel = this.mcp.channel;
  }

  /**
   * A new MCP session over another transport than the server's streams (MCP over HTTP):
   * its tool calls run on this server's path (concurrency, deadlines, graceful stop) with
   * the session's own reverse channel; `link` carries what it sends to its client.
   * @internal
   */
  openMcpSession(link: Pick<McpServerSide, "request" | "notify">): McpSession {
    const session: McpSession = new McpSession({
      manifest: this.definition.manifest,
      inputSchemas: this.definition.inputSchemas,
      outputSchemas: this.definition.outputSchemas,
      log: this.log,
      invoke: (params, watch) => this.invoke(params, watch, session.channel, "tools/call"),
      request: link.request,
      notify: link.notify,
      onInitialize: this.definition.onInitialize,
      fallback: this.mcpOptions.fallback,
    });
    return session;
  }

  private async initialize(params: InitializeParams | undefined): Promise<InitializeResult> {
    const protocolVersion = negotiateVersion(params);
    this.negotiation = { protocolVersion, initialized: true };
    await this.definition.onInitialize?.(params ?? {});
    const { manifest } = this.definition;
    return {
      protocolVersion,
      serverInfo: { name: manifest.name, version: manifest.version },
      client_capabilities: protocolVersion === "2.0" ? clientCapabilitiesFor(manifest.host_capabilities) : {},
      capabilities: {},
    };
  }

  private async health(): Promise<HealthResult> {
    if (this.starting) return { status: "initializing", message: "starting", details: {} };
    if (this.startupError)
      return { status: "error", message: `start failed: ${this.startupError.message}`, details: {} };
    const hook = this.definition.health;
    if (!hook) return { status: "ready", message: "", details: {} };
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("health check timed out")), HEALTH_TIMEOUT_MS - 500);
      });
      const result = await Promise.race([
        Promise.resolve(hook({ protocolVersion: this.negotiation.protocolVersion })),
        timeout,
      ]);
      if (!result || !HEALTH_STATUSES.includes(result.status)) {
        const status = JSON.stringify(result?.status);
        this.log.error(`health hook returned status ${status}; allowed: ${HEALTH_STATUSES.join(", ")}`);
        return { status: "error", message: `health hook returned an invalid status ${status}`, details: {} };
      }
      return { status: result.status, message: result.message ?? "", details: result.details ?? {} };
    } catch (error) {
      return { status: "error", message: (error as Error).message ?? String(error), details: {} };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Answers an invoke: started at once when it can take a slot now (see `startNow`),
   * else queued for one. Both ways run the handler and make its answer alike (`ToolRunner.run`).
   */
  private invoke(
    raw: unknown,
    watch?: (run: InvokeRun) => void,
    channel?: ReverseChannel,
    method: CallMethod = "invoke",
  ): InvokeResult | Promise<InvokeResult> {
    if (this.stopped) {
      return Promise.reject(new RpcError(ServerErrorCode.SHUTTING_DOWN, "Plugin is shutting down"));
    }
    const invoke = this.admit(raw);
    invoke.channel = channel;
    invoke.method = method;
    if (this.takeSlotNow()) return this.startNow(invoke, watch);
    const run = new InvokeRun(invoke.params.tool, this.onRunFinished, noop, noop);
    watch?.(run);
    return this.answerLater(invoke, run, () => {
      run.withdraw = this.limiter.acquire(() => this.startQueued(invoke, run));
    });
  }

  /**
   * Checks an invoke on arrival (params, tool, argument depth, the host's deadline) and
   * fixes its deadline: the tool's timeout from now, or the host's deadline if sooner.
   * Throws what the host is to be answered instead.
   */
  private admit(raw: unknown): AdmittedInvoke {
    const params = parseInvokeParams(raw);
    const tool = this.tools.get(params.tool);
    if (!tool) throw new UnknownToolError(params.tool, [...this.tools.keys()]);
    checkArgumentDepth(params.arguments);
    const wire = params.context ?? {};
    const arrivedAt = Date.now();
    const timeoutMs = (tool.spec.timeout ?? DEFAULT_INVOKE_TIMEOUT_S) * 1000;
    const hostDeadline = typeof wire.deadline_ms === "number" ? wire.deadline_ms : Number.POSITIVE_INFINITY;
    if (hostDeadline <= arrivedAt) throw this.notStarted(params.tool, hostDeadline, arrivedAt);
    const deadlineMs = Math.min(arrivedAt + timeoutMs, hostDeadline);
    return { tool, params, invokeId: invokeIdOf(params), arrivedAt, deadlineMs };
  }

  /**
   * Takes a concurrency slot for an invoke that can start in this turn: the start hook is
   * done, a slot is free, nobody waits for one and this turn has not run enough
   * synchronous tool code yet.
   */
  private takeSlotNow(): boolean {
    return !this.starting && !this.startupError && this.limiter.tryAcquire();
  }

  /**
   * Runs the tool at once in the slot just taken. A handler that returns a plain value is
   * answered synchronously — no promise, no timer, no bookkeeping beyond the call. Kept
   * for what it measured: queueing every invoke instead gave 37–71 % less pipelined throughput.
   */
  private startNow(
    invoke: AdmittedInvoke,
    watch?: (run: InvokeRun) => void,
  ): InvokeResult | Promise<InvokeResult> {
    const run = new InvokeRun(invoke.params.tool, this.onRunFinished, noop, noop);
    run.started = true;
    watch?.(run);
    let answer: InvokeResult | Promise<InvokeResult>;
    try {
      answer = this.runner.run(invoke, run);
    } catch (error) {
      this.limiter.release();
      throw error;
    }
    if (!isThenable(answer)) {
      this.limiter.release();
      return answer;
    }
    return this.answerLater(invoke, run, () => {
      answer.then(
        (result) => run.succeed(result),
        (error: unknown) => run.fail(error),
      );
    });
  }

  /** Starts a queued invoke once it got its slot, unless its deadline passed while it waited. */
  private startQueued(invoke: AdmittedInvoke, run: InvokeRun): void {
    run.started = true;
    const now = Date.now();
    if (invoke.deadlineMs <= now) {
      // The timer may not have had a turn yet.
      run.fail(this.notStarted(invoke.params.tool, invoke.deadlineMs, now), true);
      return;
    }
    this.runAfterStartup(invoke, run).then(
      (result) => run.succeed(result),
      (error: unknown) => run.fail(error),
    );
  }

  /** Runs the handler once the start hook finished; fails the invoke if the hook failed. */
  private async runAfterStartup(invoke: AdmittedInvoke, run: InvokeRun): Promise<InvokeResult> {
    if (this.startup) await this.startup;
    if (this.startupError) {
      throw new RpcError(
        JsonRpcErrorCode.INTERNAL_ERROR,
        `Plugin failed to start: ${this.startupError.message}`,
      );
    }
    return this.runner.run(invoke, run);
  }

  /**
   * The answer of an invoke that is not answered synchronously: tracked as in flight (a
   * stop waits for it), cut off at its deadline; `begin` starts or queues its work.
   */
  private answerLater(invoke: AdmittedInvoke, run: InvokeRun, begin: () => void): Promise<InvokeResult> {
    return new Promise<InvokeResult>((resolve, reject) => {
      run.rebind(resolve, reject);
      this.inFlight.add(run);
      const delay = Math.max(0, invoke.deadlineMs - invoke.arrivedAt);
      run.armTimer(delay, () => {
        const error = new ToolTimeoutError(invoke.params.tool, delay);
        this.log.warn(error.message);
        run.fail(error, true);
      });
      begin();
    });
  }

  /** The -32000 answer of an invoke whose deadline passed before its tool could start. */
  private notStarted(tool: string, deadlineMs: number, now: number): RpcError {
    const error = new RpcError(
      ServerErrorCode.TOOL_TIMEOUT,
      `Tool "${tool}" was not started: its deadline passed ${now - deadlineMs} ms before it could start`,
      { tool, deadline_ms: deadlineMs },
    );
    this.log.warn(error.message);
    return error;
  }

  private async shutdown(reason: StopReason): Promise<StopReason> {
    const closing = new RpcError(ServerErrorCode.SHUTTING_DOWN, "Plugin is shutting down");
    // A broken output can answer nothing, so nothing is waited for. Otherwise input stays
    // open while running invokes get their grace: the host's replies to their reverse calls
    // come that way (new invokes are refused).
    if (reason === "output-closed") this.inFlight.abandon(closing);
    else await this.inFlight.drain(closing);
    this.peer.stopReading();
    this.peer.rejectAll(closing);
    try {
      await this.definition.onStop?.();
    } catch (error) {
      this.log.error(`stop hook failed: ${(error as Error).stack ?? String(error)}`);
    }
    await this.closeFallback();
    await this.flushTelemetry();
    await this.peer.flushed();
    releaseTransportDir();
    this.resolveDone(reason);
    return reason;
  }

  /** Exports the calls' spans and metrics not yet sent, when telemetry is on. */
  private async flushTelemetry(): Promise<void> {
    try {
      await this.runner.telemetry?.shutdown();
    } catch (error) {
      this.log.error(`exporting telemetry at stop failed: ${(error as Error).message}`);
    }
  }

  /** Releases the MCP fallback (its database, its server), whichever protocol was spoken. */
  private async closeFallback(): Promise<void> {
    try {
      await this.mcpOptions.fallback?.close?.();
    } catch (error) {
      this.log.error(`closing the MCP fallback failed: ${(error as Error).stack ?? String(error)}`);
    }
  }
}

const noop = () => {};

/** The requests that run a tool: paced so that a turn's CPU-bound tools yield to input, timers and signals. */
function isToolCall(method: string): boolean {
  return method === "invoke" || method === "tools/call";
}
