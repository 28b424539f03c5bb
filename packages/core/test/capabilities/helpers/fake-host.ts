import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createLogger, type InitializeResult, type InvokeResult, streamTransport } from "@executa/core";
import { JsonRpcPeer } from "@executa/core/internal";

export const HOST_PLUGIN = fileURLToPath(new URL("../fixtures/host-plugin.mjs", import.meta.url));

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

const never = () => new Promise<never>(() => {});

/**
 * The host side of the wire for capability tests: spawns the fixture plugin, speaks to
 * it through core's JsonRpcPeer, records every line the plugin writes on stdout, and
 * answers its reverse calls with a scripted responder (by default: never).
 */
export class FakeHost {
  /** Every stdout line, JSON or not, in order. */
  readonly stdoutLines: string[] = [];
  /** Every parsed stdout frame, in order. */
  readonly frames: Record<string, unknown>[] = [];
  /** Reverse calls received, in arrival order. */
  readonly calls: ReverseCall[] = [];
  responder: Responder = never;
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly peer: JsonRpcPeer;
  private stderrText = "";
  private readonly waiters = new Set<() => void>();

  constructor(env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [HOST_PLUGIN], { env: { ...process.env, ...env }, stdio: "pipe" });
    let pending = "";
    // Registered before the peer's listener, so a call's raw frame is recorded first.
    this.child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      let lf = pending.indexOf("\n");
      while (lf !== -1) {
        const line = pending.slice(0, lf);
        pending = pending.slice(lf + 1);
        this.stdoutLines.push(line);
        try {
          this.frames.push(JSON.parse(line));
        } catch {
          // Kept in stdoutLines only.
        }
        lf = pending.indexOf("\n");
      }
    });
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderrText += chunk.toString("utf8");
      this.wake();
    });
    this.child.stdin.on("error", () => {});
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
    this.peer = new JsonRpcPeer({
      transport: streamTransport(
        this.child.stdout,
        { stream: this.child.stdin },
        { maxLineBytes: 32 * 1024 * 1024 },
      ),
      log: createLogger("fake-host", { level: "error" }),
      maxFrameBytes: 32 * 1024 * 1024,
      handleRequest: (request) => {
        const id = String(request.id);
        const frame = this.frames.find((f) => f.id === request.id && f.method === request.method) ?? {};
        const call: ReverseCall = {
          id,
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

  stderr(): string {
    return this.stderrText;
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

  /** Closes stdin and waits for the plugin to exit (kills it if it does not). */
  async close(): Promise<void> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    await this.exited;
    clearTimeout(timer);
  }

  private wake(): void {
    for (const wake of [...this.waiters]) wake();
  }
}

/** A spawned host that negotiated `version` (or none when `version` is null). */
export async function startHost(
  options: { env?: Record<string, string>; version?: string | null } = {},
): Promise<FakeHost> {
  const host = new FakeHost(options.env);
  if (options.version !== null) await host.initialize(options.version ?? "2.0");
  return host;
}
