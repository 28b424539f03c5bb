import type { InputStream } from "../framing/byte-streams.js";
import type { FrameSink } from "../framing/frame-writer.js";
import { LineReader } from "../framing/line-reader.js";
import type { Transport, TransportReceiver } from "./transport.js";

/** Options of {@link streamTransport}. */
export interface StreamTransportOptions {
  /** Longest line accepted, in bytes; a longer one arrives as an `oversized` event. Default 16 MiB. */
  maxLineBytes?: number;
}

/**
 * Under Bun, a stdin chunk can hold many frames and the next chunk is read in the same
 * turn: pausing after each chunk lets timers, signals and answers run in between.
 */
const YIELD_AFTER_EACH_CHUNK = typeof process.versions.bun === "string";

/**
 * A transport over a byte stream pair (stdio, a child's pipes): the input is split into
 * lines, each line handed over once it is whole; frames go to `output`.
 */
export function streamTransport(
  input: InputStream,
  output: FrameSink,
  options: StreamTransportOptions = {},
): Transport {
  return new StreamTransport(input, output, options);
}

class StreamTransport implements Transport {
  private reader: LineReader | undefined;
  private receiver: TransportReceiver | undefined;
  /** The peer asked for a pause. */
  private held = false;
  /** Input is paused for one turn of the event loop (see {@link YIELD_AFTER_EACH_CHUNK}). */
  private yielding = false;
  private closed = false;
  private ended = false;
  private readonly onData = YIELD_AFTER_EACH_CHUNK
    ? (chunk: Buffer) => {
        this.reader!.push(chunk);
        this.yieldTurn();
      }
    : (chunk: Buffer) => this.reader!.push(chunk);
  private readonly afterYield = () => {
    this.yielding = false;
    if (!this.held && !this.closed) this.input.resume();
  };
  private readonly onEnd = () => {
    if (this.ended) return;
    this.ended = true;
    this.input.off("data", this.onData);
    if (!this.closed) this.reader!.end();
    this.receiver!.end();
  };

  constructor(
    private readonly input: InputStream,
    readonly output: FrameSink,
    private readonly options: StreamTransportOptions,
  ) {}

  open(receiver: TransportReceiver): void {
    if (this.receiver) throw new Error("transport already open");
    this.receiver = receiver;
    this.reader = new LineReader((event) => receiver.line(event), {
      maxLineBytes: this.options.maxLineBytes,
    });
    this.input.on("data", this.onData);
    this.input.once("end", this.onEnd);
    this.input.once("close", this.onEnd);
  }

  pause(): void {
    this.held = true;
    this.input.pause();
  }

  resume(): void {
    this.held = false;
    if (!this.yielding && !this.closed) this.input.resume();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.pause();
  }

  private yieldTurn(): void {
    if (this.yielding) return;
    this.yielding = true;
    this.input.pause();
    setImmediate(this.afterYield);
  }
}
