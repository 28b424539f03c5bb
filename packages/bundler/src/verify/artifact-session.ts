import { type ChildProcess, spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import {
  JsonRpcErrorCode,
  JsonRpcPeer,
  type LineEvent,
  LineReader,
  type Logger,
  RpcError,
} from "@executa/core";

/** How to start an artifact. */
export interface ArtifactCommand {
  command: string;
  args?: readonly string[];
  cwd?: string;
  /** Environment of the child; the build's environment by default. */
  env?: NodeJS.ProcessEnv;
}

/** How an artifact ended. */
export interface ArtifactExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const STDERR_KEEP_BYTES = 64 * 1024;

/**
 * One running artifact driven over real pipes, as a host drives it: requests go to its
 * stdin through core's {@link JsonRpcPeer}, answers come back on its stdout.
 *
 * Every stdout line is inspected before the peer sees it: a line that is not a JSON-RPC
 * frame (a stray `console.log` at startup, say) is recorded in {@link strayLines} and
 * kept from the peer, so no error frame is ever sent back about it.
 */
export class ArtifactSession {
  /** Stdout lines that were not JSON-RPC frames, in order. */
  readonly strayLines: string[] = [];
  /** Resolves once the process has exited. */
  readonly exited: Promise<ArtifactExit>;
  /** Milliseconds since `performance.timeOrigin` when the process was spawned. */
  readonly spawnedAt: number;
  private readonly child: ChildProcess;
  private readonly peer: JsonRpcPeer;
  private stderrText = "";
  private exitState: ArtifactExit | undefined;
  private spawnError: Error | undefined;
  private readonly strayListeners: ((line: string) => void)[] = [];
  private readonly unmatchedListeners: ((frame: Record<string, unknown>) => void)[] = [];

  constructor(command: ArtifactCommand) {
    this.spawnedAt = performance.now();
    this.child = spawn(command.command, [...(command.args ?? [])], {
      cwd: command.cwd,
      env: command.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const frames = new PassThrough();
    const reader = new LineReader((event) => this.inspect(event, frames));
    this.child.stdout!.on("data", (chunk: Buffer) => reader.push(chunk));
    this.child.stdout!.on("end", () => {
      reader.end();
      frames.end();
    });
    this.child.stderr!.setEncoding("utf8");
    this.child.stderr!.on("data", (text: string) => {
      this.stderrText = (this.stderrText + text).slice(-STDERR_KEEP_BYTES);
    });
    // A child that exits early closes stdin under us; the exit is reported, not the EPIPE.
    this.child.stdin!.on("error", () => {});
    this.exited = new Promise((resolve) => {
      this.child.once("error", (error) => {
        this.spawnError = error;
        this.exitState ??= { code: null, signal: null };
        frames.end();
        resolve(this.exitState);
      });
      this.child.once("close", (code, signal) => {
        this.exitState = { code, signal };
        this.peer.rejectAll(new RpcError(JsonRpcErrorCode.INTERNAL_ERROR, "the artifact exited"));
        resolve(this.exitState);
      });
    });
    this.peer = new JsonRpcPeer({
      input: frames,
      output: { stream: this.child.stdin! },
      // The build offers no host capabilities: a reverse call during a check is answered as unknown.
      handleRequest: ({ method }) => {
        throw new RpcError(JsonRpcErrorCode.METHOD_NOT_FOUND, `the build check offers no ${method}`);
      },
      log: silentLog,
      newId,
    });
  }

  /** Everything the artifact wrote to stderr (the last 64 KiB). */
  get stderr(): string {
    return this.stderrText;
  }

  /** Set once the process has exited. */
  get exit(): ArtifactExit | undefined {
    return this.exitState;
  }

  /** Set when the process could not be started at all. */
  get startError(): Error | undefined {
    return this.spawnError;
  }

  /** The process id, once spawned. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Calls `listener` for every stray stdout line from now on. */
  onStrayLine(listener: (line: string) => void): void {
    this.strayListeners.push(listener);
  }

  /**
   * Calls `listener` for every response that answers none of this session's requests:
   * error frames with a null id (a malformed or oversized line), answers to raw frames.
   */
  onUnmatchedFrame(listener: (frame: Record<string, unknown>) => void): void {
    this.unmatchedListeners.push(listener);
  }

  /**
   * Sends one request; rejects with an {@link RpcError} on an error answer, on timeout,
   * or when the process exits first.
   */
  request(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    if (this.exitState) {
      return Promise.reject(new RpcError(JsonRpcErrorCode.INTERNAL_ERROR, "the artifact exited"));
    }
    return this.peer.request(method, params, {
      timeoutMs,
      timeoutError: () =>
        new RpcError(JsonRpcErrorCode.INTERNAL_ERROR, `no answer to ${method} within ${timeoutMs} ms`),
    });
  }

  /**
   * Closes stdin (the host's way to ask for shutdown) and waits for the exit; after
   * `graceMs` the process is killed, and the result says so with `killed: true`.
   */
  async close(graceMs: number): Promise<ArtifactExit & { killed: boolean }> {
    if (this.exitState) return { ...this.exitState, killed: false };
    this.child.stdin!.end();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      this.exited.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (!timedOut) return { ...this.exitState!, killed: false };
    this.kill();
    return { ...(await this.exited), killed: true };
  }

  /**
   * Writes raw bytes to the artifact's stdin, outside the JSON-RPC peer: for frames a
   * host would never send, and for floods whose answers nobody awaits. Resolves once the
   * pipe took them (false when stdin is closed).
   */
  writeRaw(data: string | Buffer): Promise<boolean> {
    const stdin = this.child.stdin!;
    if (this.exitState || stdin.destroyed || stdin.writableEnded) return Promise.resolve(false);
    return new Promise((resolve) => {
      if (stdin.write(data)) return resolve(true);
      const settle = (took: boolean) => () => {
        stdin.off("drain", onDrain).off("close", onClose);
        resolve(took);
      };
      const onDrain = settle(true);
      const onClose = settle(false);
      stdin.once("drain", onDrain).once("close", onClose);
    });
  }

  /** Sends a signal to the process (no-op once it exited). */
  signal(name: NodeJS.Signals): void {
    if (!this.exitState) this.child.kill(name);
  }

  /** Kills the process at once. */
  kill(): void {
    if (!this.exitState) this.child.kill("SIGKILL");
  }

  private inspect(event: LineEvent, frames: PassThrough): void {
    if (event.kind !== "line") {
      this.stray(event.kind === "oversized" ? `<${event.bytes} byte line>` : "<invalid UTF-8>");
      return;
    }
    const frame = parseFrame(event.text);
    if (!frame) this.stray(event.text);
    else if (typeof frame.method === "string" || isOurId(frame.id)) frames.write(`${event.text}\n`);
    else for (const listener of this.unmatchedListeners) listener(frame);
  }

  private stray(line: string): void {
    this.strayLines.push(line);
    for (const listener of this.strayListeners) listener(line);
  }
}

const silentLog: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silentLog };

const OUR_ID_PREFIX = "build-";
let nextId = 0;
const newId = () => `${OUR_ID_PREFIX}${++nextId}`;
const isOurId = (id: unknown) => typeof id === "string" && id.startsWith(OUR_ID_PREFIX);

/**
 * A JSON-RPC 2.0 frame: a request or notification, or a response (a `result` or an
 * `error`, with a string, number or null id). Anything else is not protocol output.
 */
function parseFrame(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const frame = value as Record<string, unknown>;
  if (frame.jsonrpc !== "2.0") return undefined;
  if (typeof frame.method === "string") return frame;
  const id = frame.id;
  const idOk = typeof id === "string" || typeof id === "number" || (id === null && "error" in frame);
  return idOk && ("result" in frame || "error" in frame) ? frame : undefined;
}
