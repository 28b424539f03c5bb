import {
  createLogger,
  createPluginServer,
  type InitializeResult,
  type InvokeResult,
  type LogLevel,
  memoryTransportPair,
  type Transport,
} from "@executa/core";
import { JsonRpcPeer } from "@executa/core/internal";
import { hostPluginDefinition } from "../fixtures/host-plugin-definition.mjs";

/** Longest line either side reads, above the 8 MiB inline upload in base64. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/** A reverse call the plugin made, with the exact frame it wrote. */
export interface ReverseCall {
  id: string;
  method: string;
  params: Record<string, unknown> & { context?: { invoke_id?: string }; _clientTimeoutS?: number };
  frame: Record<string, unknown>;
}

/** Answers one reverse call: return (or resolve) the result, throw an RpcError for an error frame. */
export type Responder = (call: ReverseCall) => unknown;

/** What the fixture's tools answer in `data`. */
export interface Outcome {
  ok: boolean;
  result?: unknown;
  error?: { name: string; code?: number; message: string; data?: unknown; family?: string };
}

/** The plugin's side as the host sees it: where its frames come from, and how it ends. */
export interface PluginEnd {
  /** The host's transport to the plugin. */
  transport: Transport;
  /** Settles with the plugin's exit code once it stopped. */
  exited: Promise<number | null>;
  /** Ends the plugin's input (its stdin) and waits for it to stop. */
  close(): Promise<void>;
}

const never = () => new Promise<never>(() => {});

/**
 * The host side of the wire for capability tests: speaks to the fixture plugin through
 * core's JsonRpcPeer, records every line the plugin writes, and answers its reverse calls
 * with a scripted responder (by default: never).
 */
export class FakeHost {
  /** Every line the plugin wrote, JSON or not, in order. */
  readonly stdoutLines: string[] = [];
  /** Every parsed frame, in order. */
  readonly frames: Record<string, unknown>[] = [];
  /** Reverse calls received, in arrival order. */
  readonly calls: ReverseCall[] = [];
  responder: Responder = never;
  readonly exited: Promise<number | null>;
  private readonly peer: JsonRpcPeer;
  private stderrText = "";
  private readonly waiters = new Set<() => void>();

  constructor(private readonly plugin: PluginEnd) {
    this.exited = plugin.exited;
    this.peer = new JsonRpcPeer({
      transport: this.recording(plugin.transport),
      log: createLogger("fake-host", { level: "error" }),
      maxFrameBytes: MAX_LINE_BYTES,
      handleRequest: (request) => {
        const frame = this.frames.find((f) => f.id === request.id && f.method === request.method) ?? {};
        const call: ReverseCall = {
          id: String(request.id),
          method: request.method,
          params: (request.params ?? {}) as ReverseCall["params"],
          frame,
        };
        this.calls.push(call);
        this.wake();
        return this.responder(call);
      },
    });
  }

  /** Sends `initialize` offering `protocolVersion`. */
  async initialize(protocolVersion = "2.0"): Promise<InitializeResult> {
    return (await this.peer.request(
      "initialize",
      { protocolVersion, clientInfo: { name: "fake-host", version: "0" } },
      { timeoutMs: 10_000 },
    )) as InitializeResult;
  }

  /** Invokes a tool and resolves with the invoke result (rejects with the error frame as RpcError). */
  invoke(
    tool: string,
    args: Record<string, unknown>,
    context: Record<string, unknown> = {},
  ): Promise<InvokeResult<Outcome>> {
    return this.invokeRaw({ tool, arguments: args, context });
  }

  /** Sends `invoke` with exactly these params (e.g. a legacy top-level `invoke_id`). */
  async invokeRaw(params: Record<string, unknown>): Promise<InvokeResult<Outcome>> {
    return (await this.peer.request("invoke", params, { timeoutMs: 30_000 })) as InvokeResult<Outcome>;
  }

  /** Invokes a fixture tool and resolves with its `{ ok, result | error }` data. */
  async outcome(tool: string, args: Record<string, unknown>, context: Record<string, unknown> = {}) {
    const result = await this.invoke(tool, args, context);
    if (!result?.success) throw new Error(`invoke failed: ${JSON.stringify(result)}`);
    return result.data!;
  }

  /** Sends a request the fixture answers (e.g. `shutdown`). */
  request(method: string, params?: unknown): Promise<unknown> {
    return this.peer.request(method, params, { timeoutMs: 10_000 });
  }

  /** Resolves with the `count`-th reverse call (1-based) once it arrived. */
  async call(count = 1, timeoutMs = 10_000): Promise<ReverseCall> {
    await this.until(() => this.calls.length >= count, timeoutMs, `${count} reverse call(s)`);
    return this.calls[count - 1]!;
  }

  /** Frames the plugin wrote that were requests to the host (reverse calls). */
  get reverseFrames(): Record<string, unknown>[] {
    return this.frames.filter((frame) => typeof frame.method === "string");
  }

  /** What the plugin wrote on stderr (its log and the fixture's outcome lines). */
  stderr(): string {
    return this.stderrText;
  }

  /** Adds to what the plugin wrote on stderr. */
  appendStderr(text: string): void {
    this.stderrText += text;
    this.wake();
  }

  /** Resolves once `predicate` holds. */
  async until(predicate: () => boolean, timeoutMs = 10_000, what = "condition"): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; stderr:\n${this.stderrText}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, 25);
        this.waiters.add(wake);
      });
    }
  }

  /** Ends the plugin's input and waits for it to stop. */
  close(): Promise<void> {
    return this.plugin.close();
  }

  /** The transport, with every line the plugin writes recorded before the peer reads it. */
  private recording(transport: Transport): Transport {
    return {
      output: transport.output,
      pause: () => transport.pause(),
      resume: () => transport.resume(),
      close: () => transport.close(),
      open: (receiver) =>
        transport.open({
          ...receiver,
          line: (event) => {
            if (event.kind === "line") this.record(event.text);
            receiver.line(event);
          },
        }),
    };
  }

  private record(line: string): void {
    this.stdoutLines.push(line);
    try {
      this.frames.push(JSON.parse(line));
    } catch {
      // Kept in stdoutLines only.
    }
  }

  private wake(): void {
    for (const wake of [...this.waiters]) wake();
  }
}

/** How the fixture plugin runs: what the child's environment sets. */
export interface FixtureOptions {
  /** Its host_capabilities; every family by default. */
  declared?: readonly string[];
  /** Its log level (`EXECUTA_LOG_LEVEL`); info by default. */
  logLevel?: LogLevel;
  /** Its shutdown grace; 4 s by default. */
  shutdownGraceMs?: number;
}

/**
 * A host linked to the fixture plugin served in this process over the in-memory
 * transport pair (frames cross it as over stdio), that negotiated `version` (or none when
 * `version` is null).
 */
export async function startHost(
  options: FixtureOptions & { version?: string | null } = {},
): Promise<FakeHost> {
  const [hostEnd, pluginEnd] = memoryTransportPair({ maxLineBytes: MAX_LINE_BYTES }, {});
  let host: FakeHost | undefined;
  const stderr = (text: string) => host?.appendStderr(text);
  const server = createPluginServer(hostPluginDefinition({ declared: options.declared, report: stderr }), {
    transport: pluginEnd,
    log: createLogger("host-fixture", { level: options.logLevel, write: stderr }),
    ownProcess: false,
    shutdownGraceMs: options.shutdownGraceMs ?? 4000,
  });
  const exited = server.done.then(() => {
    pluginEnd.endOutput();
    return 0;
  });
  host = new FakeHost({
    transport: hostEnd,
    exited,
    close: async () => {
      hostEnd.endOutput();
      await exited;
    },
  });
  if (options.version !== null) await host.initialize(options.version ?? "2.0");
  return host;
}
