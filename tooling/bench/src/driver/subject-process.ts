import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { LineReader } from "@executa/core/internal";
import { type ProcessMemory, readProcessMemory } from "../proc-status.js";

/** How to start one subject: a command line. */
export interface CommandLine {
  command: string;
  args: readonly string[];
}

/** A JSON-RPC response as the bench sees it (file-transport pointers already resolved). */
export interface Response {
  id: number;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
  /** Set when the response came by file transport: the pointer file's path. */
  fileTransport?: string;
  /** Size of the response: the line, or the file behind a pointer. */
  bytes: number;
  /** When its line arrived (performance.now() ms), before any pointer file was read. */
  receivedAt: number;
}

/** What a pipelined burst of requests measured. */
export interface BurstResult {
  /** From the first byte written to the last response read, in ms. */
  elapsedMs: number;
  /** Responses that were not `{ success: true }` results. */
  failures: number;
  /** The first failure, for the error message. */
  firstFailure?: string;
}

interface Waiter {
  resolve: (response: Response) => void;
  reject: (error: Error) => void;
}

/** A burst under way: its requests are being written, its answers counted. */
export interface BurstHandle {
  /** Settles once every request is written to the pipe (rejects if the subject exits first). */
  written: Promise<void>;
  /** Resolves when every request has been answered (ms from the first write), rejects on exit. */
  answered: Promise<number>;
  /** Stops counting this burst's answers and returns the tally (later duplicates go unseen). */
  end: () => BurstResult;
}

interface Burst {
  firstId: number;
  endId: number;
  remaining: number;
  /** 1 at index `id - firstId` once that id is answered: a second answer is a failure. */
  seen: Uint8Array;
  elapsedMs?: number;
  failures: number;
  firstFailure?: string;
  /** Whether a response's `result` is a success. */
  succeeded: (result: unknown) => boolean;
  done: () => void;
}

const STDERR_TAIL_BYTES = 4096;
const WRITE_CHUNK_FRAMES = 256;

/**
 * Starts a subject for the bench: spawns its command line with piped stdio and talks to
 * it with pre-serialized request frames.
 *
 * This is a measuring client, not a second JSON-RPC peer: it only sends requests with
 * numeric ids and matches the answers, with as little work per frame as possible so
 * that the subject, not the client, is what a figure measures. Framing is core's
 * {@link LineReader}. Responses to the same burst are counted instead of each getting
 * its own promise.
 */
export class SubjectProcess {
  /** When `spawn` was called (performance.now() ms). */
  readonly spawnedAt: number;
  readonly child: ChildProcess;
  /** Resolves once the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly waiters = new Map<number, Waiter>();
  private readonly bursts = new Set<Burst>();
  private readonly reader: LineReader;
  private nextId = 1;
  private stderrTail = "";
  private exitError: Error | undefined;

  constructor(
    readonly name: string,
    line: CommandLine,
    env: NodeJS.ProcessEnv = subjectEnv(),
  ) {
    this.spawnedAt = performance.now();
    this.child = spawn(line.command, [...line.args], { stdio: ["pipe", "pipe", "pipe"], env });
    this.reader = new LineReader((event) => {
      if (event.kind === "line") this.onLine(event.text);
      else this.failAll(new Error(`${name}: unusable stdout line (${event.kind}, ${event.bytes} bytes)`));
    });
    this.child.stdout!.on("data", (chunk: Buffer) => this.reader.push(chunk));
    this.child.stderr!.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
    });
    // A subject that dies mid-write must surface as its exit error, not as EPIPE.
    this.child.stdin!.on("error", () => {});
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        this.exitError = new Error(
          `${name} exited (code ${code}, signal ${signal}) with requests open; stderr: ${this.stderrTail.trim() || "(empty)"}`,
        );
        this.failAll(this.exitError);
        resolve({ code, signal });
      });
    });
    this.child.once("error", (error) => {
      this.exitError = new Error(`${name}: cannot start ${line.command}: ${error.message}`);
      this.failAll(this.exitError);
    });
  }

  /** The child's pid (known once spawned). */
  get pid(): number {
    const pid = this.child.pid;
    if (pid === undefined) throw this.exitError ?? new Error(`${this.name}: no pid (spawn failed)`);
    return pid;
  }

  /** The last few KiB the subject wrote to stderr. */
  get stderr(): string {
    return this.stderrTail;
  }

  /** VmRSS / VmHWM of the child now (undefined where there is no procfs). */
  memory(): ProcessMemory | undefined {
    return this.child.pid === undefined ? undefined : readProcessMemory(this.child.pid);
  }

  /** Sends one request and resolves with its response. */
  request(method: string, params?: unknown): Promise<Response> {
    return this.requestSerialized(method, params === undefined ? undefined : JSON.stringify(params));
  }

  /**
   * Sends one request whose params are already serialized (so that serializing a large
   * argument is not part of what is timed) and resolves with its response.
   */
  requestSerialized(method: string, paramsJson: string | undefined): Promise<Response> {
    if (this.exitError) return Promise.reject(this.exitError);
    const id = this.nextId++;
    const head = `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)}`;
    const frame = paramsJson === undefined ? `${head}}\n` : `${head},"params":${paramsJson}}\n`;
    return new Promise((resolve, reject) => {
      this.waiters.set(id, { resolve, reject });
      this.child.stdin!.write(frame);
    });
  }

  /** Sends `describe` and resolves with the manifest. */
  async describe(): Promise<Record<string, unknown>> {
    const response = await this.request("describe");
    if (response.error) throw new Error(`${this.name}: describe failed: ${response.error.message}`);
    return response.result as Record<string, unknown>;
  }

  /** Invokes a tool and resolves with the response (whatever its outcome). */
  invoke(tool: string, args: Record<string, unknown>): Promise<Response> {
    return this.request("invoke", { tool, arguments: args });
  }

  /**
   * Sends `count` invokes of one tool with the same arguments back to back, without
   * waiting for answers (written in chunks, honoring backpressure), and resolves when
   * all are answered.
   */
  burst(tool: string, args: Record<string, unknown>, count: number): Promise<BurstResult> {
    return this.burstRequests("invoke", { tool, arguments: args }, count, invokeSucceeded);
  }

  /**
   * Sends `count` requests of one method with the same params back to back (chunked,
   * honoring backpressure) and resolves when all are answered; `succeeded` tells a
   * success from a failure by the response's `result` (an error frame always fails, and
   * so does an id answered twice).
   */
  async burstRequests(
    method: string,
    params: unknown,
    count: number,
    succeeded: (result: unknown) => boolean,
  ): Promise<BurstResult> {
    const burst = this.startBurst(method, params, count, succeeded);
    await burst.answered;
    return burst.end();
  }

  /**
   * Starts writing `count` requests of one method with the same params (chunked, honoring
   * backpressure) without waiting for anything: the caller decides when stdout is read
   * (see {@link pauseOutput}) and when the tally ends.
   */
  startBurst(
    method: string,
    params: unknown,
    count: number,
    succeeded: (result: unknown) => boolean,
  ): BurstHandle {
    if (this.exitError) throw this.exitError;
    const firstId = this.nextId;
    this.nextId += count;
    const chunks = burstChunks(firstId, count, method, params);
    let burst!: Burst;
    const allAnswered = new Promise<void>((resolve) => {
      burst = {
        firstId,
        endId: firstId + count,
        remaining: count,
        seen: new Uint8Array(count),
        failures: 0,
        succeeded,
        done: resolve,
      };
    });
    this.bursts.add(burst);
    const started = performance.now();
    const failed = new Promise<never>((_, reject) => {
      void this.exited.then(() => reject(this.exitError));
    });
    failed.catch(() => {});
    const written = this.writeChunks(chunks, failed);
    const answered = Promise.race([allAnswered, failed]).then(() => {
      burst.elapsedMs = performance.now() - started;
    });
    written.catch(() => {});
    return {
      written,
      answered: answered.then(() => burst.elapsedMs!),
      end: () => {
        this.bursts.delete(burst);
        const result: BurstResult = {
          elapsedMs: burst.elapsedMs ?? performance.now() - started,
          failures: burst.failures,
        };
        if (burst.firstFailure !== undefined) result.firstFailure = burst.firstFailure;
        return result;
      },
    };
  }

  /** Stops reading the subject's stdout (the pipe fills, then the subject's writes back up). */
  pauseOutput(): void {
    this.child.stdout!.pause();
  }

  /** Reads the subject's stdout again. */
  resumeOutput(): void {
    this.child.stdout!.resume();
  }

  private async writeChunks(chunks: readonly string[], failed: Promise<never>): Promise<void> {
    const stdin = this.child.stdin!;
    for (const chunk of chunks) {
      if (!stdin.write(chunk)) {
        await Promise.race([new Promise((resolve) => stdin.once("drain", resolve)), failed]);
      }
    }
  }

  /** Sends a notification (no id, no answer). */
  notify(method: string, params?: unknown): void {
    const body = params === undefined ? "" : `,"params":${JSON.stringify(params)}`;
    this.child.stdin!.write(`{"jsonrpc":"2.0","method":${JSON.stringify(method)}${body}}\n`);
  }

  /** Closes stdin (the protocol's shutdown request) and waits for the exit; kills after `graceMs`. */
  async close(graceMs = 3000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Kills the process at once. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill("SIGKILL");
    await this.exited;
  }

  private onLine(text: string): void {
    const receivedAt = performance.now();
    let frame: Record<string, unknown>;
    try {
      frame = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return; // Non-JSON stdout lines are tolerated and never interpreted (spec).
    }
    const id = frame.id;
    if (typeof id !== "number") return;
    for (const burst of this.bursts) {
      if (id >= burst.firstId && id < burst.endId) {
        countAnswer(burst, id, frame, text);
        return;
      }
    }
    const waiter = this.waiters.get(id);
    if (!waiter) return;
    this.waiters.delete(id);
    try {
      waiter.resolve(toResponse(id, frame, text, receivedAt));
    } catch (error) {
      waiter.reject(error as Error);
    }
  }

  private failAll(error: Error): void {
    for (const [id, waiter] of this.waiters) {
      this.waiters.delete(id);
      waiter.reject(error);
    }
  }
}

/** Counts one answer of a burst: a failure when it is not a success or its id was answered before. */
function countAnswer(burst: Burst, id: number, frame: Record<string, unknown>, text: string): void {
  const index = id - burst.firstId;
  if (burst.seen[index] === 1) {
    burst.failures += 1;
    burst.firstFailure ??= `id ${id} answered twice: ${text.slice(0, 300)}`;
    return;
  }
  burst.seen[index] = 1;
  if (!("result" in frame) || !burst.succeeded(frame.result)) {
    burst.failures += 1;
    burst.firstFailure ??= text.slice(0, 300);
  }
  burst.remaining -= 1;
  if (burst.remaining === 0) burst.done();
}

/** The frames of a burst, ids from `firstId`, joined into write-sized chunks. */
function burstChunks(firstId: number, count: number, method: string, params: unknown): string[] {
  const body = params === undefined ? "" : `,"params":${JSON.stringify(params)}`;
  const tail = `,"method":${JSON.stringify(method)}${body}}\n`;
  const chunks: string[] = [];
  for (let start = 0; start < count; start += WRITE_CHUNK_FRAMES) {
    let chunk = "";
    const end = Math.min(count, start + WRITE_CHUNK_FRAMES);
    for (let i = start; i < end; i++) chunk += `{"jsonrpc":"2.0","id":${firstId + i}${tail}`;
    chunks.push(chunk);
  }
  return chunks;
}

/** An Executa invoke result that is `{ success: true }`. */
function invokeSucceeded(result: unknown): boolean {
  return (result as { success?: unknown } | null)?.success === true;
}

function toResponse(id: number, frame: Record<string, unknown>, text: string, receivedAt: number): Response {
  const pointer = frame.__file_transport;
  if (typeof pointer === "string") {
    const inner = readFileSync(pointer, "utf8");
    rmSync(pointer, { force: true });
    const response = JSON.parse(inner) as Record<string, unknown>;
    return { ...pick(response), id, fileTransport: pointer, bytes: Buffer.byteLength(inner), receivedAt };
  }
  return { ...pick(frame), id, bytes: Buffer.byteLength(text), receivedAt };
}

function pick(frame: Record<string, unknown>): Pick<Response, "result" | "error"> {
  const out: Pick<Response, "result" | "error"> = {};
  if ("result" in frame) out.result = frame.result;
  if (frame.error) out.error = frame.error as Response["error"] & {};
  return out;
}

/**
 * The environment subjects run in: the bench's own, without NODE_OPTIONS (a test
 * runner's loader flags would otherwise slow every subject's start).
 */
export function subjectEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return env;
}
