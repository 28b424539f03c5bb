import type { InputStream, OutputStream } from "../framing/byte-streams.js";

/** Bytes a writer may leave unread before `write` asks it to wait for `drain`: a pipe's 64 KiB. */
const PIPE_CAPACITY_BYTES = 64 * 1024;

type Callback = (error?: Error | null) => void;

/**
 * A one-way byte pipe in memory, with a pipe's manners: what is written is read in a
 * later turn, in order, in the chunks it was written in; a write is confirmed once it
 * was read; `write` returns false while more than 64 KiB wait unread, and `drain`
 * follows once they were; a paused reader holds everything back. Built on nothing but
 * the event loop, so loading it costs no stream module.
 */
export class MemoryPipe implements InputStream, OutputStream {
  private readonly chunks: { data: Buffer; done: Callback }[] = [];
  private unreadBytes = 0;
  private paused = false;
  private scheduled = false;
  private ending = false;
  private endEmitted = false;
  private waitingForDrain = false;
  private dataListener: ((chunk: Buffer) => void) | undefined;
  private readonly endListeners: (() => void)[] = [];
  private readonly drainListeners: (() => void)[] = [];
  private readonly deliver = () => this.flow();

  /** True once {@link MemoryPipe.end} was called: nothing more can be written. */
  get writableEnded(): boolean {
    return this.ending;
  }

  write(data: string | Uint8Array, callback: Callback = () => {}): boolean {
    if (this.ending) {
      const error = new Error("write after end");
      queueMicrotask(() => callback(error));
      return false;
    }
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data);
    this.chunks.push({ data: bytes, done: callback });
    this.unreadBytes += bytes.length;
    this.schedule();
    if (this.unreadBytes > PIPE_CAPACITY_BYTES) this.waitingForDrain = true;
    return !this.waitingForDrain;
  }

  /** Closes the writing end: the reader gets `end` after what was written. */
  end(): void {
    if (this.ending) return;
    this.ending = true;
    this.schedule();
  }

  /**
   * Closes both ends at once: what was not read is dropped (its writes are confirmed
   * with an error) and the reader gets `end`.
   */
  destroy(): void {
    const dropped = this.chunks.splice(0);
    this.unreadBytes = 0;
    for (const chunk of dropped) chunk.done(new Error("pipe destroyed"));
    this.ending = true;
    this.emitEnd();
  }

  on(event: "data" | "error", listener: ((chunk: Buffer) => void) | ((error: Error) => void)): this {
    // A memory pipe never fails, so error listeners are never called.
    if (event === "data") {
      this.dataListener = listener as (chunk: Buffer) => void;
      this.schedule();
    }
    return this;
  }

  once(event: "end" | "close" | "drain", listener: () => void): this {
    if (event === "drain") this.drainListeners.push(listener);
    else if (this.endEmitted) queueMicrotask(listener);
    else this.endListeners.push(listener);
    return this;
  }

  off(event: "data", listener: (chunk: Buffer) => void): this {
    if (event === "data" && this.dataListener === listener) this.dataListener = undefined;
    return this;
  }

  pause(): this {
    this.paused = true;
    return this;
  }

  resume(): this {
    this.paused = false;
    this.schedule();
    return this;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.deliver);
  }

  private flow(): void {
    this.scheduled = false;
    while (!this.paused && this.dataListener && this.chunks.length > 0) {
      const chunk = this.chunks.shift()!;
      this.unreadBytes -= chunk.data.length;
      this.dataListener(chunk.data);
      chunk.done();
    }
    if (this.waitingForDrain && this.unreadBytes <= PIPE_CAPACITY_BYTES) {
      this.waitingForDrain = false;
      for (const listener of this.drainListeners.splice(0)) listener();
    }
    if (this.ending && this.chunks.length === 0) this.emitEnd();
  }

  private emitEnd(): void {
    if (this.endEmitted) return;
    this.endEmitted = true;
    for (const listener of this.endListeners.splice(0)) listener();
  }
}
