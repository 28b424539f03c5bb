import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { tmpdir } from "node:os";
import { basename } from "node:path";
import {
  createLogger,
  DEFAULT_INVOKE_TIMEOUT_S,
  DESCRIBE_TIMEOUT_MS,
  HEALTH_TIMEOUT_MS,
  HOST_KILL_GRACE_MS,
  type InvokeResult,
  type InvokeWireContext,
  JsonRpcErrorCode,
  type Logger,
  MAX_FRAME_BYTES,
  type Manifest,
  type ProtocolVersion,
  RpcError,
} from "@executa/core";
import { type IncomingRequest, JsonRpcPeer } from "@executa/core/internal";
import { pluginExited, protocolViolation, requestTimedOut } from "../errors/call-failures.js";
import { type ExitInfo, HostError, isHostError } from "../errors/host-error.js";
import type { ProviderSet } from "../providers/provider.js";
import { InvokeRegistry } from "../routing/invoke-registry.js";
import { type ReverseCallEvent, ReverseRouter } from "../routing/reverse-router.js";
import { DEFAULT_MAX_FILE_TRANSPORT_BYTES } from "./file-transport-reader.js";
import { LineStream } from "./line-stream.js";
import { hostCapabilitiesOffer } from "./offer.js";
import { childProcessLink, type PluginLink } from "./plugin-link.js";
import {
  type HealthReport,
  type Negotiated,
  readHealthResult,
  readInitializeResult,
  readInvokeResult,
  readManifest,
} from "./results.js";
import { StdoutDemux } from "./stdout-demux.js";
import { type StopResult, type StopVia, stopChild } from "./stop-child.js";

/** How to run a plugin and how the host behaves towards it. */
export interface PluginProcessOptions {
  /** The executable: any language, any path (resolved on PATH like a shell would). */
  command: string;
  args?: readonly string[];
  /** Extra environment; merged over the host's own unless `inheritEnv` is false. */
  env?: Record<string, string | undefined>;
  /** Start from the host's environment (the spec: "with the user's environment"). Default true. */
  inheritEnv?: boolean;
  cwd?: string;
  /** Answer reverse calls with these; a family without a provider answers -32601. */
  providers?: ProviderSet;
  /**
   * The host's allow-list of capabilities. A reverse call is served only when the
   * manifest's `host_capabilities` declares its capability and (if given) this list
   * holds it. Default: everything the manifest declares.
   */
  grantedCapabilities?: readonly string[];
  /** The version `initialize` offers. Default "2.0". */
  protocolVersion?: ProtocolVersion;
  /** The host's name for the plugin (`context.plugin_name`). Default: the manifest's name. */
  pluginName?: string;
  /** The local user all storage scopes belong to. Default "local-user". */
  userId?: string;
  /** The app the plugin runs inside; `app` storage scope is granted only with one. */
  appId?: string;
  /** Sent as `initialize`'s `clientInfo`. */
  clientInfo?: { name: string; version: string };
  /**
   * What an invoke timeout does besides rejecting: `"terminate"` (the spec's: the plugin
   * receives SIGTERM, then SIGKILL after the grace) or `"keep"` (leave it running).
   * Default "terminate".
   */
  onInvokeTimeout?: "terminate" | "keep";
  /** SIGTERM → SIGKILL grace. Default 5 s. */
  killGraceMs?: number;
  /** Longest stdout line accepted. Default 16 MiB. */
  maxFrameBytes?: number;
  /**
   * Largest file-transport file read. Default 256 MiB. A pointer is only followed to the
   * plugin's own answer (see `takeTransportFile`: a private `executa-…` directory or an
   * owner-only `executa-resp-…` file in the host's or the plugin's temp dir, a regular
   * file holding the response for the pointer's id); the invoke of any other pointer
   * rejects with a `PROTOCOL_VIOLATION` {@link HostError}.
   */
  maxFileTransportBytes?: number;
  /** The host's own diagnostics (stderr by default). */
  log?: Logger;
}

/** How long past an explicit deadline the host still waits for the plugin's own answer. */
const DEADLINE_ANSWER_GRACE_MS = 2_000;

/** Options of one `invoke`. */
export interface InvokeOptions {
  /** Into `context.credentials`. */
  credentials?: Record<string, string>;
  /** How long to wait. Default: the tool's `timeout` from the described manifest, else 60 s. */
  timeoutMs?: number;
  /**
   * `context.deadline_ms` to send (Unix epoch ms). Default: now + `timeoutMs`. When given
   * without `timeoutMs`, the host waits until the deadline plus a 2 s grace, so a plugin
   * that honours its deadline answers (with its own timeout error) before the host gives up.
   */
  deadlineMs?: number;
  /** `context.invoke_id`; a fresh UUID by default. Must not be in flight already. */
  invokeId?: string;
  /** Gives up waiting (rejects with the signal's reason); the plugin is not told. */
  signal?: AbortSignal;
  /** Extra `context` fields; the host's own (`invoke_id`, `deadline_ms`, ...) win. */
  context?: Record<string, unknown>;
  /** Called for each `executa/progress` notification the plugin sends for this invoke. */
  onProgress?: (progress: ProgressEvent) => void;
}

/** An `executa/progress` notification. */
export interface ProgressEvent {
  invokeId: string | undefined;
  type: string;
  data: unknown;
}

/** One settled invoke, for traces and the REPL. */
export interface InvokeEvent {
  invokeId: string;
  tool: string;
  /** Host-measured, from sending to the answer. */
  elapsedMs: number;
  /** `success` / `failure` for an InvokeResult, `error` for an error frame, timeout or exit. */
  outcome: "success" | "failure" | "error";
  error?: string;
}

/** Host-measured timings, in ms (from `performance.now()`: cheap, monotonic). */
export interface PluginTimings {
  /** From spawning to the OS reporting the process started. */
  spawnMs?: number;
  initializeMs?: number;
  describeMs?: number;
  /** The latest settled invoke. */
  lastInvokeMs?: number;
}

/** Events of a {@link PluginProcess}. */
export interface PluginProcessEvents {
  /** The process exited. */
  exit: [exit: ExitInfo];
  /** A notification from the plugin (e.g. `executa/progress`). */
  notification: [notification: { method: string; params: unknown }];
  /** A reverse call was answered. */
  reverseCall: [event: ReverseCallEvent];
  /** An invoke settled. */
  invoke: [event: InvokeEvent];
  /** A response with a null or missing id (e.g. the plugin's -32700 to a malformed line). */
  orphanResponse: [frame: Record<string, unknown>];
}

const EXIT_SETTLE_MS = 300;

/**
 * One running plugin, driven over JSON-RPC on its stdio with core's `JsonRpcPeer`:
 * handshake, describe / invoke / health, reverse calls answered through providers, and a
 * spec-conformant stop. Create one with {@link spawnPlugin}, or around any
 * {@link PluginLink} (e.g. a plugin server in this process).
 */
export class PluginProcess extends EventEmitter<PluginProcessEvents> {
  /** The plugin's stderr, line by line. */
  readonly stderr = new LineStream();
  /** Lines the plugin wrote to stdout that are not protocol frames (debug output). */
  readonly stdoutDebug = new LineStream();
  /** Resolves once the process has exited. */
  readonly exited: Promise<ExitInfo>;
  /**
   * Resolves once the process has exited and closed its stdout and stderr: every line it
   * wrote is in {@link PluginProcess.stderr} and {@link PluginProcess.stdoutDebug} by then (`exited` can come first).
   */
  readonly closed: Promise<ExitInfo>;
  /** Host-measured timings. */
  readonly timings: PluginTimings = {};

  private readonly peer: JsonRpcPeer;
  private readonly demux: StdoutDemux;
  private readonly registry = new InvokeRegistry();
  private readonly log: Logger;
  private readonly progressListeners = new Map<string, (event: ProgressEvent) => void>();
  private exitInfo: ExitInfo | undefined;
  private gone: HostError | undefined;
  private stdinBroken = false;
  private negotiatedState: Negotiated | undefined;
  private manifestState: Manifest | undefined;

  private readonly link: PluginLink;

  /**
   * @param plugin - A child spawned with stdio `['pipe', 'pipe', 'pipe']`, or any other
   *   {@link PluginLink}.
   */
  constructor(
    plugin: ChildProcess | PluginLink,
    private readonly options: PluginProcessOptions,
  ) {
    super();
    this.log = options.log ?? createLogger("executa-host");
    const maxFrameBytes = options.maxFrameBytes ?? MAX_FRAME_BYTES;
    this.link = isPluginLink(plugin)
      ? plugin
      : childProcessLink(plugin, {
          maxLineBytes: maxFrameBytes,
          onError: (error) => this.log.error(`plugin process error: ${error.message}`),
        });
    this.exited = this.link.exited.then((info) => {
      this.exitInfo = info;
      this.emit("exit", info);
      void this.settleAfterExit();
      return info;
    });
    this.closed = this.link.closed;
    this.link.pipeStderr(this.stderr);
    const maxFileTransportBytes = options.maxFileTransportBytes ?? DEFAULT_MAX_FILE_TRANSPORT_BYTES;
    this.demux = this.createDemux(maxFrameBytes, maxFileTransportBytes);
    this.peer = this.createPeer(this.createRouter(), maxFileTransportBytes);
  }

  private createDemux(maxFrameBytes: number, maxFileTransportBytes: number): StdoutDemux {
    return new StdoutDemux(this.link.transport, {
      maxFrameBytes,
      maxFileTransportBytes,
      transportRoots: pluginTempRoots(this.options),
      onDebugLine: (line) => this.stdoutDebug.push(line),
      onOrphanResponse: (frame) => this.emit("orphanResponse", frame),
      log: this.log,
    });
  }

  private createRouter(): ReverseRouter {
    const { options } = this;
    return new ReverseRouter({
      providers: options.providers ?? {},
      registry: this.registry,
      state: () => ({
        protocolVersion: this.negotiatedState?.protocolVersion,
        declaredCapabilities: this.manifestState?.host_capabilities,
        grantedCapabilities: options.grantedCapabilities,
        pluginName: this.pluginName,
        userId: options.userId ?? "local-user",
        appId: options.appId,
      }),
      onCall: (event) => this.emit("reverseCall", event),
    });
  }

  private createPeer(router: ReverseRouter, maxFileTransportBytes: number): JsonRpcPeer {
    return new JsonRpcPeer({
      transport: this.demux,
      handleRequest: (request) =>
        request.id === undefined ? this.onNotification(request) : router.handle(request),
      log: this.log,
      // What the host sends is held to no tighter a limit than what it accepts by file transport.
      maxFrameBytes: maxFileTransportBytes + 1024,
      // The host answers inline: the spec describes file transport for plugin answers only.
      fileTransportThresholdBytes: Number.POSITIVE_INFINITY,
      onInputEnd: () => void this.settleAfterStdoutEnd(),
      onOutputBroken: () => {
        this.stdinBroken = true;
      },
    });
  }

  /** The OS process id. */
  get pid(): number | undefined {
    return this.link.pid;
  }

  /** True until the process has exited. */
  get running(): boolean {
    return this.exitInfo === undefined;
  }

  /** The host's name for the plugin: the option, else the manifest's name, else the command's. */
  get pluginName(): string {
    return this.options.pluginName ?? this.manifestState?.name ?? basename(this.options.command);
  }

  /** The result of {@link PluginProcess.initialize}, once it ran. */
  get negotiated(): Negotiated | undefined {
    return this.negotiatedState;
  }

  /** The manifest from {@link PluginProcess.describe}, once it ran. */
  get manifest(): Manifest | undefined {
    return this.manifestState;
  }

  /** Number of invokes in flight. */
  get activeInvokes(): number {
    return this.registry.size;
  }

  /** `initialize` then `describe`: the usual start of a session. */
  async start(): Promise<{ negotiated: Negotiated; manifest: Manifest }> {
    const negotiated = await this.initialize();
    const manifest = await this.describe();
    return { negotiated, manifest };
  }

  /**
   * The v2 handshake: offers `protocolVersion` ("2.0" by default) within 5 s (or
   * `timeoutMs`, e.g. for a plugin run under an emulator). A plugin answering -32601 is a
   * v1 plugin: recorded as negotiated "1.1", not an error.
   */
  async initialize(options: { timeoutMs?: number } = {}): Promise<Negotiated> {
    const offered = this.options.protocolVersion ?? "2.0";
    const started = performance.now();
    try {
      const result = await this.call(
        "initialize",
        {
          protocolVersion: offered,
          clientInfo: this.options.clientInfo ?? { name: "executa-host", version: "0.1.0" },
          capabilities: hostCapabilitiesOffer(this.options.providers ?? {}),
        },
        options.timeoutMs ?? DESCRIBE_TIMEOUT_MS,
      );
      this.negotiatedState = readInitializeResult(result, offered);
    } catch (error) {
      if (!(error instanceof RpcError && error.code === JsonRpcErrorCode.METHOD_NOT_FOUND)) throw error;
      this.negotiatedState = { protocolVersion: "1.1", initializeSupported: false };
    } finally {
      this.timings.initializeMs = performance.now() - started;
    }
    return this.negotiatedState;
  }

  /**
   * `describe`, within the spec's 5 s (or `timeoutMs`). The manifest then sets tool
   * timeouts and grants.
   */
  async describe(options: { timeoutMs?: number } = {}): Promise<Manifest> {
    const started = performance.now();
    try {
      const timeoutMs = options.timeoutMs ?? DESCRIBE_TIMEOUT_MS;
      this.manifestState = readManifest(await this.call("describe", undefined, timeoutMs));
      return this.manifestState;
    } finally {
      this.timings.describeMs = performance.now() - started;
    }
  }

  /**
   * Invokes a tool. Stamps `context.invoke_id`, `context.deadline_ms`,
   * `context.plugin_name` and `context.credentials`; waits the tool's declared timeout
   * (default 60 s), after which it rejects with a `REQUEST_TIMEOUT` {@link HostError} (-32000) and,
   * unless `onInvokeTimeout` is "keep", terminates the plugin as the spec says.
   *
   * @returns the plugin's `InvokeResult` (`success: false` is a result, not a rejection).
   * @throws RpcError for an error frame (e.g. -32601 unknown tool, -32602 bad arguments),
   *   `REQUEST_TIMEOUT` {@link HostError}, `PLUGIN_EXITED`, `PROTOCOL_VIOLATION`.
   */
  async invoke<D = unknown>(
    tool: string,
    args: Record<string, unknown> = {},
    options: InvokeOptions = {},
  ): Promise<InvokeResult<D>> {
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      throw new TypeError("invoke arguments must be an object");
    }
    const invokeId = options.invokeId ?? randomUUID();
    const now = Date.now();
    const timeoutMs =
      options.timeoutMs ??
      (options.deadlineMs !== undefined
        ? Math.max(0, options.deadlineMs - now) + DEADLINE_ANSWER_GRACE_MS
        : this.toolTimeoutMs(tool));
    const deadlineMs = options.deadlineMs ?? now + timeoutMs;
    this.registry.add(invokeId, tool, deadlineMs);
    if (options.onProgress) this.progressListeners.set(invokeId, options.onProgress);
    const context: InvokeWireContext = {
      ...options.context,
      invoke_id: invokeId,
      deadline_ms: deadlineMs,
      plugin_name: this.pluginName,
    };
    if (options.credentials) context.credentials = { ...options.credentials };
    const started = performance.now();
    let event: Omit<InvokeEvent, "elapsedMs"> = { invokeId, tool, outcome: "error" };
    try {
      const raw = await this.call("invoke", { tool, arguments: args, context }, timeoutMs, {
        signal: options.signal,
        timeoutError: () => requestTimedOut("invoke", timeoutMs, tool),
      });
      const result = readInvokeResult<D>(raw);
      event = result.success
        ? { invokeId, tool, outcome: "success" }
        : { invokeId, tool, outcome: "failure", error: result.error };
      return result;
    } catch (error) {
      event = { invokeId, tool, outcome: "error", error: (error as Error).message };
      if (
        isHostError(error, "REQUEST_TIMEOUT") &&
        (this.options.onInvokeTimeout ?? "terminate") === "terminate"
      ) {
        this.log.warn(`${error.message}; terminating the plugin (SIGTERM)`);
        void this.stop({ via: "sigterm" }).catch(() => {});
      }
      throw error;
    } finally {
      const elapsedMs = performance.now() - started;
      this.timings.lastInvokeMs = elapsedMs;
      this.registry.remove(invokeId);
      this.progressListeners.delete(invokeId);
      this.emit("invoke", { ...event, elapsedMs });
    }
  }

  /**
   * `health`, within the spec's 3 s. A plugin without the method (-32601) is healthy:
   * `{ status: "ready", implemented: false }`.
   */
  async health(): Promise<HealthReport> {
    try {
      return readHealthResult(await this.call("health", undefined, HEALTH_TIMEOUT_MS));
    } catch (error) {
      if (error instanceof RpcError && error.code === JsonRpcErrorCode.METHOD_NOT_FOUND) {
        return { status: "ready", implemented: false };
      }
      throw error;
    }
  }

  /**
   * Sends any request (for conformance checks and methods this class does not wrap).
   * Rejects with a `REQUEST_TIMEOUT` {@link HostError} after `timeoutMs`.
   */
  request(method: string, params?: unknown, timeoutMs = DESCRIBE_TIMEOUT_MS): Promise<unknown> {
    return this.call(method, params, timeoutMs);
  }

  /**
   * Writes bytes to the plugin's stdin exactly as given, bypassing the JSON-RPC layer
   * (include the line ending yourself) — for conformance checks that send malformed or
   * oversized lines. Answers to such lines usually arrive as `orphanResponse` events.
   */
  writeRaw(data: string | Uint8Array): Promise<void> {
    return this.link.writeRaw(data);
  }

  /** Sends a notification (no answer expected). */
  notify(method: string, params?: unknown): void {
    this.peer.notify(method, params);
  }

  /**
   * Stops the plugin the spec's way: close stdin and/or SIGTERM (`via`, default both),
   * wait up to 5 s, then SIGKILL. `via: "shutdown"` first sends the optional v2 `shutdown`
   * request and then closes stdin. Resolves with the exit status once it has exited.
   */
  async stop(options: { via?: StopVia | "shutdown"; graceMs?: number } = {}): Promise<StopResult> {
    const graceMs = options.graceMs ?? this.options.killGraceMs ?? HOST_KILL_GRACE_MS;
    if (options.via === "shutdown") {
      const started = performance.now();
      await this.call("shutdown", {}, graceMs).catch(() => {});
      const left = Math.max(0, graceMs - (performance.now() - started));
      return stopChild(this.link, this.exited, () => this.running, { via: "eof", graceMs: left });
    }
    return stopChild(this.link, this.exited, () => this.running, { via: options.via, graceMs });
  }

  /** Sends SIGKILL at once. */
  kill(): void {
    if (this.running) this.link.kill("SIGKILL");
  }

  private toolTimeoutMs(tool: string): number {
    const declared = this.manifestState?.tools.find((t) => t.name === tool)?.timeout;
    const seconds = typeof declared === "number" && declared > 0 ? declared : DEFAULT_INVOKE_TIMEOUT_S;
    return seconds * 1000;
  }

  private async call(
    method: string,
    params: unknown,
    timeoutMs: number,
    extra: { signal?: AbortSignal; timeoutError?: () => Error } = {},
  ): Promise<unknown> {
    if (this.gone) throw this.gone;
    try {
      return await this.peer.request(method, params, {
        timeoutMs,
        signal: extra.signal,
        timeoutError: extra.timeoutError ?? (() => requestTimedOut(method, timeoutMs)),
      });
    } catch (error) {
      const refused = this.refusedPointer(error);
      if (refused) throw protocolViolation(method, refused.message, refused.pointer);
      // A write that failed because the plugin died says "output closed", a request after
      // its stdout ended says "input ended"; the exit says why.
      if (
        (this.stdinBroken || this.peer.inputHasEnded) &&
        !isHostError(error, "REQUEST_TIMEOUT", "PLUGIN_EXITED")
      ) {
        await Promise.race([this.exited, delay(EXIT_SETTLE_MS)]);
        throw this.gone ?? pluginExited(this.pluginName, this.exitInfo, this.stderr.recent);
      }
      throw error;
    }
  }

  /** The error response the demux made for a refused file-transport pointer, if `error` is one. */
  private refusedPointer(
    error: unknown,
  ): { message: string; pointer: { __file_transport: unknown; reason: unknown } } | undefined {
    if (!(error instanceof RpcError)) return undefined;
    const data = error.data as Record<string, unknown> | undefined;
    if (data?.refusal !== this.demux.refusalTag) return undefined;
    return {
      message: error.message,
      pointer: { __file_transport: data.file_transport, reason: data.reason },
    };
  }

  private onNotification(request: IncomingRequest): void {
    this.emit("notification", { method: request.method, params: request.params });
    if (request.method !== "executa/progress") return;
    const params = (request.params ?? {}) as Record<string, unknown>;
    const context = params.context as Record<string, unknown> | undefined;
    const invokeId = typeof context?.invoke_id === "string" ? context.invoke_id : undefined;
    const target = invokeId
      ? this.progressListeners.get(invokeId)
      : this.progressListeners.size === 1
        ? this.progressListeners.values().next().value
        : undefined;
    target?.({
      invokeId,
      type: typeof params.type === "string" ? params.type : "progress",
      data: params.data,
    });
  }

  /** stdout closed: no answer can come any more. Waits briefly for the exit status. */
  private async settleAfterStdoutEnd(): Promise<void> {
    await Promise.race([this.exited, delay(EXIT_SETTLE_MS)]);
    this.failPending();
  }

  /** The process exited: frames still buffered in the pipe get a moment to arrive. */
  private async settleAfterExit(): Promise<void> {
    await delay(EXIT_SETTLE_MS);
    this.failPending();
  }

  private failPending(): void {
    if (this.gone && this.peer.pendingCount === 0) return;
    this.gone ??= pluginExited(this.pluginName, this.exitInfo, [...this.stderr.recent]);
    this.peer.rejectAll(this.gone);
    this.registry.clear();
  }
}

/** The environment the plugin runs with. */
function pluginEnv(options: PluginProcessOptions): Record<string, string | undefined> {
  return { ...(options.inheritEnv === false ? {} : process.env), ...options.env };
}

/**
 * Where the plugin's temp dir may be: the host's, and whatever the plugin's environment
 * names (TMPDIR, TMP, TEMP: what Node, Python and Go read), so a transport directory made
 * with the plugin's own `tmpdir()` is found.
 */
function pluginTempRoots(options: PluginProcessOptions): string[] {
  const env = pluginEnv(options);
  const named = [env.TMPDIR, env.TMP, env.TEMP].filter((dir): dir is string => !!dir);
  return [...new Set([tmpdir(), ...named])];
}

function isPluginLink(plugin: ChildProcess | PluginLink): plugin is PluginLink {
  return "transport" in plugin;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Spawns a plugin executable and resolves once the OS started it (rejects when it
 * cannot be started, e.g. the command does not exist). Nothing is sent yet: call
 * {@link PluginProcess.start} (or `initialize` and `describe`) next.
 */
export function spawnPlugin(options: PluginProcessOptions): Promise<PluginProcess> {
  const env = pluginEnv(options);
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  const started = performance.now();
  const child = spawn(options.command, [...(options.args ?? [])], {
    cwd: options.cwd,
    env: env as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const plugin = new PluginProcess(child, options);
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      child.off("spawn", onSpawn);
      reject(
        new HostError("SPAWN_FAILED", `cannot start plugin "${options.command}": ${error.message}`, {
          cause: error,
        }),
      );
    };
    const onSpawn = () => {
      child.off("error", onError);
      plugin.timings.spawnMs = performance.now() - started;
      resolve(plugin);
    };
    child.once("error", onError);
    child.once("spawn", onSpawn);
  });
}
