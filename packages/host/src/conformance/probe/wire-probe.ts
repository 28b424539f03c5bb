import { type ChildProcess, spawn } from "node:child_process";
import {
  type FrameClass,
  MAX_FRAME_BYTES,
  type NotificationFrameClass,
  type RequestFrameClass,
  type RequestId,
  type ResponseFrameClass,
} from "@executa/core";
import { LineReader } from "@executa/core/internal";
import { takeTransportFile } from "../../process/file-transport-reader.js";
import { classifyLine, type StdoutLine } from "./stdout-line.js";

/** How the probed process ended. */
export interface ProbeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A response frame the plugin sent (file-transport pointers already resolved). */
export interface ReceivedResponse {
  id: unknown;
  frame: Record<string, unknown>;
  /** Arrival, in ms since the probe spawned the process. */
  atMs: number;
  /** Set once a waiter took it; unclaimed responses answered nothing the probe asked. */
  claimed: boolean;
}

/** What waiting for one answer came to. */
export type ReplyOutcome =
  | { kind: "response"; frame: Record<string, unknown>; ms: number }
  | { kind: "timeout"; ms: number }
  /** stdout closed (the process exited or closed it) before the answer came. */
  | { kind: "gone"; ms: number; exit?: ProbeExit };

/** How to start the probed plugin. */
export interface ProbeOptions {
  command: string;
  args?: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** Longest stdout line the probe keeps (anything above the spec's 16 MiB is no frame anyway). */
const MAX_READ_LINE_BYTES = MAX_FRAME_BYTES + 1024;
const STDERR_LINES_KEPT = 200;

/**
 * One plugin process driven byte by byte for conformance checks.
 *
 * This is deliberately not a JSON-RPC peer (hosts use `@executa/host`'s `PluginProcess`
 * on core's `JsonRpcPeer`): a checker must write malformed input, see every stdout line
 * exactly as written (including non-protocol ones and answers nobody asked for), and
 * judge frames instead of normalizing them. It only frames lines (core's `LineReader`),
 * matches responses to ids, resolves `__file_transport` pointers, and refuses reverse
 * calls with -32601 (the checker offers no host capabilities).
 */
export class WireProbe {
  /** Every stdout line, in order. */
  readonly stdout: StdoutLine[] = [];
  /** The latest stderr lines. */
  readonly stderr: string[] = [];
  /** Every response frame, in arrival order. */
  readonly responses: ReceivedResponse[] = [];
  /** Requests and notifications the plugin sent to the host. */
  readonly incoming: Record<string, unknown>[] = [];
  /** Resolves with the exit status once the process exited. */
  readonly exited: Promise<ProbeExit>;
  /** The first error writing to stdin (EPIPE when the plugin is gone). */
  stdinError: Error | undefined;

  private readonly child: ChildProcess;
  private readonly started = performance.now();
  private readonly waiters = new Set<() => void>();
  private readonly stdoutEnded: Promise<void>;
  private exitInfo: ProbeExit | undefined;
  private outputDone = false;
  private nextNumericId = 1;
  private pendingTransports = 0;

  private constructor(options: ProbeOptions) {
    this.child = spawn(options.command, [...(options.args ?? [])], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
        this.wake();
      });
    });
    this.child.stdin!.on("error", (error) => {
      this.stdinError ??= error;
    });
    const reader = new LineReader(
      (event) => {
        if (event.kind === "line") this.onStdoutLine(event.text);
        else
          this.stdout.push({
            kind: event.kind,
            preview: `<${event.bytes} bytes${event.kind === "oversized" ? "" : " of invalid UTF-8"}>`,
            bytes: event.bytes,
          });
      },
      { maxLineBytes: MAX_READ_LINE_BYTES },
    );
    this.stdoutEnded = new Promise((resolve) => {
      const end = () => {
        reader.end();
        this.outputDone = true;
        resolve();
        this.wake();
      };
      this.child.stdout!.on("data", (chunk: Buffer) => reader.push(chunk));
      this.child.stdout!.once("end", end);
      this.child.stdout!.once("close", end);
    });
    const stderrReader = new LineReader((event) => {
      this.stderr.push(event.kind === "line" ? event.text : `<${event.bytes} bytes>`);
      if (this.stderr.length > STDERR_LINES_KEPT) this.stderr.shift();
    });
    this.child.stderr!.on("data", (chunk: Buffer) => stderrReader.push(chunk));
    this.child.stderr!.once("end", () => stderrReader.end());
  }

  /**
   * Spawns the plugin. Resolves once the OS started it; rejects when it cannot be
   * started (no such command, not executable).
   */
  static start(options: ProbeOptions): Promise<WireProbe> {
    const probe = new WireProbe(options);
    return new Promise((resolve, reject) => {
      probe.child.once("spawn", () => resolve(probe));
      probe.child.once("error", (error) => {
        if (probe.child.pid === undefined) {
          reject(new Error(`cannot start "${options.command}": ${error.message}`, { cause: error }));
        }
      });
    });
  }

  /** Milliseconds since the process was spawned. */
  get elapsedMs(): number {
    return performance.now() - this.started;
  }

  /** True until the process has exited. */
  get running(): boolean {
    return this.exitInfo === undefined;
  }

  /** The exit status, once it exited. */
  get exit(): ProbeExit | undefined {
    return this.exitInfo;
  }

  /** A fresh numeric request id. */
  newId(): number {
    return this.nextNumericId++;
  }

  /** Writes one line as is (a newline is added). */
  sendRaw(text: string): void {
    if (this.child.stdin!.writable) this.child.stdin!.write(`${text}\n`);
  }

  /** Writes one frame. */
  send(frame: object): void {
    this.sendRaw(JSON.stringify(frame));
  }

  /** Sends a request and waits for its answer. */
  request(
    method: string,
    params: unknown,
    timeoutMs: number,
    id: RequestId = this.newId(),
  ): Promise<ReplyOutcome> {
    const frame: Record<string, unknown> = { jsonrpc: "2.0", id, method };
    if (params !== undefined) frame.params = params;
    const started = performance.now();
    this.send(frame);
    return this.waitForResponse(id, timeoutMs, started);
  }

  /**
   * Waits for the response with this id (compared by type and value: `1` is not `"1"`).
   * @param since where `ms` of the outcome counts from (default: now).
   */
  waitForResponse(id: unknown, timeoutMs: number, since = performance.now()): Promise<ReplyOutcome> {
    return this.waitFor(
      () => this.responses.find((r) => !r.claimed && sameId(r.id, id)),
      timeoutMs,
      since,
    ).then((outcome) => {
      if (outcome.kind !== "found") return outcome;
      outcome.value.claimed = true;
      return { kind: "response", frame: outcome.value.frame, ms: outcome.ms };
    });
  }

  /** Waits until `pick` finds something, the timeout passes, or stdout closes. */
  async waitFor<T>(
    pick: () => T | undefined,
    timeoutMs: number,
    since = performance.now(),
  ): Promise<{ kind: "found"; value: T; ms: number } | Exclude<ReplyOutcome, { kind: "response" }>> {
    for (;;) {
      const value = pick();
      const ms = performance.now() - since;
      if (value !== undefined) return { kind: "found", value, ms };
      if (this.outputDone && this.pendingTransports === 0) {
        // Give the exit status a moment to arrive after stdout closed.
        await Promise.race([this.exited, sleep(100)]);
        return { kind: "gone", ms, exit: this.exitInfo };
      }
      const left = timeoutMs - ms;
      if (left <= 0) return { kind: "timeout", ms };
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.waiters.add(done);
      });
    }
  }

  /** Waits `ms` while frames keep arriving (to see whether anything unasked-for comes). */
  settle(ms: number): Promise<void> {
    return sleep(ms);
  }

  /** Resolves once everything written to stdin has been handed to the OS (or the pipe broke). */
  drained(): Promise<void> {
    const stdin = this.child.stdin!;
    if (!stdin.writable || stdin.writableLength === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        stdin.off("drain", done);
        stdin.off("error", done);
        stdin.off("close", done);
        resolve();
      };
      stdin.once("drain", done);
      stdin.once("error", done);
      stdin.once("close", done);
    });
  }

  /** Closes stdin (the spec's shutdown request). */
  closeStdin(): void {
    this.child.stdin!.end();
  }

  /** Sends a signal to the process. */
  signal(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /** The exit status within `timeoutMs`, or undefined when it is still running. */
  async waitForExit(timeoutMs: number): Promise<ProbeExit | undefined> {
    if (!this.running) return this.exitInfo;
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
      this.exited,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return result;
  }

  /** Ends the process (SIGKILL if still running) and waits for its output to close. */
  async dispose(): Promise<void> {
    if (this.running) this.child.kill("SIGKILL");
    this.child.stdin!.destroy();
    await this.exited;
    await Promise.race([this.stdoutEnded, sleep(500)]);
  }

  private onStdoutLine(text: string): void {
    const line = classifyLine(text);
    this.stdout.push(line);
    const found = line.class;
    if (found?.kind === "request" || found?.kind === "notification") this.onIncoming(found);
    else if (found?.kind === "response" && found.outcome === "file-transport") this.onPointer(found);
    else if (found !== undefined && isJudgedAsAnswer(found)) this.onResponse(found.frame!);
  }

  /** A reverse call or notification: kept, and a call is refused (no host capabilities). */
  private onIncoming(found: RequestFrameClass | NotificationFrameClass): void {
    this.incoming.push(found.frame);
    if (found.kind !== "request") return;
    this.send({
      jsonrpc: "2.0",
      id: found.id,
      error: { code: -32601, message: `executa check offers no host capabilities (${found.method})` },
    });
  }

  private onPointer(found: ResponseFrameClass): void {
    this.pendingTransports += 1;
    void this.readTransport(found.frame.id, found.path!).finally(() => {
      this.pendingTransports -= 1;
      this.wake();
    });
  }

  private onResponse(frame: Record<string, unknown>): void {
    this.responses.push({ id: frame.id, frame, atMs: this.elapsedMs, claimed: false });
    this.wake();
  }

  private async readTransport(id: unknown, path: string): Promise<void> {
    let frame: Record<string, unknown>;
    try {
      const expectedId = typeof id === "string" || typeof id === "number" ? id : undefined;
      const inner = JSON.parse(await takeTransportFile(path, { expectedId })) as unknown;
      frame =
        typeof inner === "object" && inner !== null && !Array.isArray(inner)
          ? (inner as Record<string, unknown>)
          : { jsonrpc: "2.0", id, error: { code: -32603, message: `file transport ${path}: not an object` } };
    } catch (error) {
      frame = {
        jsonrpc: "2.0",
        id,
        error: { code: -32603, message: `file transport ${path}: ${(error as Error).message}` },
      };
    }
    this.responses.push({ id: frame.id ?? id, frame, atMs: this.elapsedMs, claimed: false });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
    this.waiters.clear();
  }
}

/**
 * A response, or a `"jsonrpc": "2.0"` object that is neither a request nor a valid
 * response (no result, a bad id): the checker judges such answers instead of ignoring them.
 */
function isJudgedAsAnswer(found: FrameClass): boolean {
  if (found.kind === "response") return true;
  return (
    found.kind === "not-a-frame" &&
    found.frame?.jsonrpc === "2.0" &&
    (found.attempted === "response" || found.attempted === "message")
  );
}

/** JSON-RPC ids compare by type and value. */
export function sameId(a: unknown, b: unknown): boolean {
  return typeof a === typeof b && a === b;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
