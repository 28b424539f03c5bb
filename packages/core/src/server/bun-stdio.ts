import { EventEmitter } from "node:events";
import type { InputStream, OutputStream } from "../framing/byte-streams.js";
import { stderr } from "../log/stderr.js";

/** The part of Bun's file sink that the writer uses. */
interface FileSink {
  /** A promise when the chunk started a flush of its own (its failure, e.g. EPIPE, rejects it). */
  write(chunk: string): number | Promise<number>;
  flush(): number | Promise<number>;
}

/** The part of the `Bun` global that the stdio streams use. */
interface BunStdio {
  stdin: { stream(): ReadableStream<Uint8Array> };
  stdout: { writer(): FileSink };
}

/**
 * Stdin and stdout over Bun's native file streams, or undefined outside Bun; stdout is
 * then kept for frames only (see {@link retireProcessStdout}). Touching `process.stdin`
 * or `process.stdout` in a Bun executable loads Node's stream modules, which costs more
 * than the rest of a plugin's startup together (~25 ms measured).
 */
export function bunStdio(): { input: InputStream; output: OutputStream } | undefined {
  const bun = (globalThis as { Bun?: BunStdio }).Bun;
  if (!bun) return undefined;
  const output = new BunStdoutWriter(bun.stdout.writer());
  retireProcessStdout();
  return { input: new BunStdinReader(bun.stdin.stream()), output };
}

/** Console methods that Bun writes to stdout natively, bypassing `process.stdout`, and whose arguments console.error takes as they are. */
const STDOUT_CONSOLE_METHODS = ["log", "info", "debug", "dirxml"] as const;

/**
 * Sends what user and library code write to stdout to stderr instead: `process.stdout`
 * becomes a view of stderr (assigned, not read, so the stream is never created), and the
 * console methods that print to stdout print through `console.error`.
 */
export function retireProcessStdout(): void {
  process.stdout = new Proxy(Object.create(null) as NodeJS.WriteStream, {
    get: (_target, key) => {
      const stream = stderr();
      const value = Reflect.get(stream, key, stream);
      return typeof value === "function" ? value.bind(stream) : value;
    },
    set: (_target, key, value) => Reflect.set(stderr(), key, value),
    has: (_target, key) => key in stderr(),
  }) as NodeJS.WriteStream & { fd: 1 };
  const toStderr = console.error.bind(console);
  for (const method of STDOUT_CONSOLE_METHODS) console[method] = toStderr;
  // Their options (depth, columns) do not carry over to console.error: the data still prints.
  console.dir = (item: unknown) => toStderr(item);
  console.table = (data: unknown) => toStderr(data);
}

/** Emits stdin's chunks as `data` until `pause`, then holds them until `resume`, like a flowing `Readable`. */
export class BunStdinReader extends EventEmitter implements InputStream {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private paused = false;
  private pumping = false;
  private ended = false;
  /** A chunk that arrived while paused. */
  private held: Buffer | undefined;

  constructor(stream: ReadableStream<Uint8Array>) {
    super();
    this.reader = stream.getReader();
    queueMicrotask(() => void this.pump());
  }

  pause(): this {
    this.paused = true;
    return this;
  }

  resume(): this {
    this.paused = false;
    if (!this.pumping) void this.pump();
    return this;
  }

  private async pump(): Promise<void> {
    if (this.ended) return;
    this.pumping = true;
    try {
      while (!this.paused && !this.ended) {
        const chunk = this.held ?? (await this.next());
        this.held = undefined;
        if (!chunk) break;
        if (this.paused) this.held = chunk;
        else this.emit("data", chunk);
      }
    } finally {
      this.pumping = false;
    }
  }

  private async next(): Promise<Buffer | undefined> {
    try {
      const { done, value } = await this.reader.read();
      if (!done) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    } catch {
      // A read error ends the input, as EOF does: no more frames can arrive.
    }
    this.ended = true;
    this.emit("end");
    this.emit("close");
    return undefined;
  }
}

/** Writes each string through Bun's file sink; `false` and a later `drain` while the pipe is full. */
export class BunStdoutWriter extends EventEmitter implements OutputStream {
  constructor(private readonly sink: FileSink) {
    super();
  }

  write(data: string, callback: (error?: Error | null) => void): boolean {
    let written: number | Promise<number>;
    let flushed: number | Promise<number>;
    try {
      written = this.sink.write(data);
      flushed = this.sink.flush();
    } catch (error) {
      this.failLater(error as Error, callback);
      return false;
    }
    if (typeof written === "number" && typeof flushed === "number") {
      process.nextTick(callback);
      return true;
    }
    // Either may be the pending flush that carries a closed pipe's EPIPE: both are awaited.
    Promise.all([written, flushed]).then(
      () => {
        callback();
        this.emit("drain");
      },
      (error: Error) => this.failLater(error, callback),
    );
    return false;
  }

  private failLater(error: Error, callback: (error?: Error | null) => void): void {
    process.nextTick(() => {
      callback(error);
      this.emit("error", error);
    });
  }
}
