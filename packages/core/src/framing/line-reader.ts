import { MAX_FRAME_BYTES } from "../wire/limits.js";

/** What the reader makes of one line of input. */
export type LineEvent =
  | { kind: "line"; text: string }
  /** A line longer than the cap; its bytes were discarded as they streamed. */
  | { kind: "oversized"; bytes: number }
  /** A line that is not valid UTF-8. */
  | { kind: "invalid-utf8"; bytes: number };

export interface LineReaderOptions {
  /** Longest line accepted, in bytes, without its line ending. Default 16 MiB. */
  maxLineBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits a byte stream into LF-terminated lines (a CR before the LF is dropped) and
 * decodes each as UTF-8. Blank lines are skipped.
 *
 * Chunks are kept by reference until a line completes and are joined once per line,
 * so reading is linear in the input. A line that grows past the cap is dropped while it
 * streams: from then on its bytes are only counted, so memory stays bounded however
 * long it is, and the next line is read normally.
 */
export class LineReader {
  private readonly max: number;
  private parts: Buffer[] = [];
  private pending = 0;
  private discarding = false;
  private discarded = 0;

  constructor(
    private readonly onEvent: (event: LineEvent) => void,
    options: LineReaderOptions = {},
  ) {
    this.max = options.maxLineBytes ?? MAX_FRAME_BYTES;
  }

  /** Feeds one chunk; emits every line it completes, in order. */
  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const lf = chunk.indexOf(LF, start);
      if (lf === -1) {
        // A chunk ending in a line ending leaves nothing to keep: no empty view made.
        if (start < chunk.length) this.keep(chunk.subarray(start));
        return;
      }
      this.finish(chunk.subarray(start, lf));
      start = lf + 1;
    }
  }

  /** Ends the input: a last line without a line ending is still emitted. */
  end(): void {
    if (this.pending > 0 || this.discarding) this.finish(Buffer.alloc(0));
  }

  private keep(part: Buffer): void {
    if (part.length === 0) return;
    if (this.discarding) {
      this.discarded += part.length;
      return;
    }
    // One extra byte of room: the line may yet end in CR LF.
    if (this.pending + part.length > this.max + 1) {
      this.discarding = true;
      this.discarded = this.pending + part.length;
      this.parts = [];
      this.pending = 0;
      return;
    }
    this.parts.push(part);
    this.pending += part.length;
  }

  private finish(last: Buffer): void {
    if (this.discarding) {
      const bytes = this.discarded + last.length;
      this.discarding = false;
      this.discarded = 0;
      this.onEvent({ kind: "oversized", bytes });
      return;
    }
    let line: Buffer;
    if (this.parts.length === 0) {
      line = last;
    } else {
      this.parts.push(last);
      line = Buffer.concat(this.parts, this.pending + last.length);
      this.parts = [];
      this.pending = 0;
    }
    let length = line.length;
    if (length > 0 && line[length - 1] === CR) length -= 1;
    if (length > this.max) {
      this.onEvent({ kind: "oversized", bytes: length });
      return;
    }
    if (length === 0) return;
    const body = length === line.length ? line : line.subarray(0, length);
    if (!checkUtf8(body)) {
      this.onEvent({ kind: "invalid-utf8", bytes: length });
      return;
    }
    const text = body.toString("utf8");
    if (text.trim() === "") return;
    this.onEvent({ kind: "line", text });
  }
}

let isUtf8: ((input: Buffer) => boolean) | undefined;

/** `isUtf8` of node:buffer, loaded on the first line rather than at startup (Bun pays for each module). */
function checkUtf8(body: Buffer): boolean {
  isUtf8 ??= process.getBuiltinModule("node:buffer").isUtf8;
  return isUtf8(body);
}
