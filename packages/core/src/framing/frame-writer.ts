import type { OutputStream } from "./byte-streams.js";

/** Where frames go: a stream for events, and the write function to call on it. */
export interface FrameSink {
  stream: OutputStream;
  /** Defaults to `stream.write`; the stdout guard passes the real stdout write here. */
  write?: (data: string, callback: (error?: Error | null) => void) => boolean;
}

/** Reports when the backlog of unwritten frames crosses its marks. */
export interface FrameWriterPressure {
  /** Over this many pending bytes, `onChange(true)`. */
  highWaterBytes: number;
  /** Back at or under this many, `onChange(false)`. */
  lowWaterBytes: number;
  onChange: (over: boolean) => void;
}

/**
 * Writes one frame per line. Frames produced while one input chunk is handled (its
 * synchronous answers and the promise callbacks they settle) go out in one write: the
 * flush runs on `process.nextTick`, after the microtask queue drained and before the
 * event loop reads more input. Flushing per chunk rather than per loop turn keeps each
 * write near the pipe's size: a turn that reads several 64 KiB chunks would otherwise
 * join megabytes into one string and one partial, then drained, write. Honors
 * backpressure: while the stream wants a `drain`, frames queue in order; the optional
 * `pressure` marks tell the owner when that queue grows too long, so it can stop
 * producing (e.g. stop reading requests) until the reader catches up.
 */
export class FrameWriter {
  private queue: string[] = [];
  private scheduled = false;
  private waitingForDrain = false;
  private inFlight = 0;
  /** Sizes of the writes handed to the stream and not yet confirmed, oldest first. */
  private inFlightSizes: number[] = [];
  private inFlightBytes = 0;
  private queuedBytes = 0;
  private overHighWater = false;
  private idleWaiters: (() => void)[] = [];
  private broken = false;
  private readonly stream: OutputStream;
  private readonly rawWrite: (data: string, callback: (error?: Error | null) => void) => boolean;
  // Made once, not per frame: both run for every flush.
  private readonly flushNow = () => this.flush();
  private readonly onWritten = (error?: Error | null) => {
    this.inFlight -= 1;
    this.inFlightBytes -= this.inFlightSizes.shift() ?? 0;
    if (error) this.fail(error);
    else {
      this.checkLowWater();
      this.settleIdle();
    }
  };

  constructor(
    sink: FrameSink,
    private readonly onBroken: (error: Error) => void = () => {},
    private readonly pressure?: FrameWriterPressure,
  ) {
    this.stream = sink.stream;
    this.rawWrite = sink.write ?? ((data, cb) => sink.stream.write(data, cb));
    this.stream.on("error", (error) => this.fail(error));
  }

  /** True once the stream failed (e.g. EPIPE: the reader went away). */
  get isBroken(): boolean {
    return this.broken;
  }

  /** Characters queued or handed to the stream but not yet written out (~bytes). */
  get pendingBytes(): number {
    return this.queuedBytes + this.inFlightBytes;
  }

  /** Queues one serialized frame (without its line ending). */
  write(frame: string): void {
    if (this.broken) return;
    this.queue.push(frame);
    this.queuedBytes += frame.length + 1;
    if (this.pressure && !this.overHighWater && this.pendingBytes > this.pressure.highWaterBytes) {
      this.overHighWater = true;
      this.pressure.onChange(true);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(this.flushNow);
    }
  }

  /** Resolves once every queued frame has been handed to the OS (or the stream broke). */
  idle(): Promise<void> {
    if (this.broken || (this.queue.length === 0 && this.inFlight === 0)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private flush(): void {
    this.scheduled = false;
    if (this.broken || this.waitingForDrain || this.queue.length === 0) return;
    const data = this.queue.length === 1 ? `${this.queue[0]}\n` : `${this.queue.join("\n")}\n`;
    this.queue = [];
    this.queuedBytes = 0;
    this.inFlight += 1;
    this.inFlightSizes.push(data.length);
    this.inFlightBytes += data.length;
    let ok: boolean;
    try {
      ok = this.rawWrite(data, this.onWritten);
    } catch (error) {
      this.inFlight -= 1;
      this.inFlightBytes -= this.inFlightSizes.pop() ?? 0;
      this.fail(error as Error);
      return;
    }
    if (!ok) {
      this.waitingForDrain = true;
      this.stream.once("drain", () => {
        this.waitingForDrain = false;
        this.flush();
      });
    }
  }

  private checkLowWater(): void {
    if (this.pressure && this.overHighWater && this.pendingBytes <= this.pressure.lowWaterBytes) {
      this.overHighWater = false;
      this.pressure.onChange(false);
    }
  }

  private settleIdle(): void {
    if (this.queue.length > 0 || this.inFlight > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private fail(error: Error): void {
    if (this.broken) return;
    this.broken = true;
    this.queue = [];
    this.queuedBytes = 0;
    this.inFlightSizes = [];
    this.inFlightBytes = 0;
    // Nothing will be written any more: the owner must not wait for a backlog to drain.
    this.checkLowWater();
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
    this.onBroken(error);
  }
}
