/** Receives each line of a {@link LineStream}. */
export type LineListener = (line: string) => void;

/**
 * Longest line {@link LineStream.recent} keeps whole (1 KiB). The kept lines are a
 * debugging tail, while a plugin's line can be 16 MiB: longer ones keep their start and
 * a note of their length.
 */
export const MAX_KEPT_LINE_CHARS = 1024;

/**
 * Most characters {@link LineStream.recent} holds in all (64 KiB), so what the host
 * retains per stream stays small however many long lines a plugin prints.
 */
export const MAX_KEPT_TOTAL_CHARS = 64 * 1024;

/**
 * A stream of text lines (the plugin's stderr, or the non-protocol lines it wrote to
 * stdout): subscribe with {@link LineStream.onLine}, iterate with `for await`, or read the last
 * lines kept in {@link LineStream.recent} (bounded: each cut to `MAX_KEPT_LINE_CHARS`, at most
 * `MAX_KEPT_TOTAL_CHARS` in all). Ends when the plugin's stream closes.
 */
export class LineStream implements AsyncIterable<string> {
  private readonly listeners = new Set<LineListener>();
  private readonly kept: string[] = [];
  private keptChars = 0;
  private ended = false;
  private readonly endWaiters = new Set<() => void>();

  /** @param keep - How many of the latest lines {@link LineStream.recent} holds at most. */
  constructor(private readonly keep = 200) {}

  /**
   * The latest lines, oldest first: at most `keep` of them and `MAX_KEPT_TOTAL_CHARS`
   * in all; a line longer than `MAX_KEPT_LINE_CHARS` is kept as its start followed
   * by `… [truncated, N chars]`. Listeners and iterators get the lines whole.
   */
  get recent(): readonly string[] {
    return this.kept;
  }

  /** True once the underlying stream closed; no more lines will come. */
  get isEnded(): boolean {
    return this.ended;
  }

  /** Calls `listener` for every line from now on; returns the unsubscribe function. */
  onLine(listener: LineListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Feeds one line (without its line ending). */
  push(line: string): void {
    if (this.ended) return;
    this.remember(line);
    for (const listener of this.listeners) listener(line);
  }

  private remember(line: string): void {
    const kept = truncateKeptLine(line);
    this.kept.push(kept);
    this.keptChars += kept.length;
    let drop = 0;
    while (
      drop < this.kept.length &&
      (this.kept.length - drop > this.keep || this.keptChars > MAX_KEPT_TOTAL_CHARS)
    ) {
      this.keptChars -= this.kept[drop]!.length;
      drop += 1;
    }
    if (drop > 0) this.kept.splice(0, drop);
  }

  /** Marks the stream ended; iterators finish after the lines they already hold. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const wake of this.endWaiters) wake();
    this.endWaiters.clear();
  }

  /** Lines from the moment iteration starts until the stream ends. */
  [Symbol.asyncIterator](): AsyncIterator<string> {
    const queue: string[] = [];
    let wake: (() => void) | undefined;
    const unsubscribe = this.onLine((line) => {
      queue.push(line);
      wake?.();
    });
    const onEnd = () => wake?.();
    this.endWaiters.add(onEnd);
    const finish = (): IteratorResult<string> => {
      unsubscribe();
      this.endWaiters.delete(onEnd);
      return { done: true, value: undefined };
    };
    return {
      next: async () => {
        for (;;) {
          const line = queue.shift();
          if (line !== undefined) return { done: false, value: line };
          if (this.ended) return finish();
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
        }
      },
      return: async () => finish(),
    };
  }
}

/**
 * Splits a text byte stream into lines for a {@link LineStream}: LF-terminated, a CR
 * before the LF dropped, lines longer than `maxLineChars` cut into pieces so a plugin
 * that never writes a newline cannot grow memory without bound.
 */
export function pipeLines(source: NodeJS.ReadableStream, target: LineStream, maxLineChars = 64 * 1024): void {
  let partial = "";
  source.setEncoding("utf8");
  source.on("data", (chunk: string) => {
    let text = partial + chunk;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      target.push(stripCr(text.slice(0, newline)));
      text = text.slice(newline + 1);
      newline = text.indexOf("\n");
    }
    while (text.length > maxLineChars) {
      target.push(text.slice(0, maxLineChars));
      text = text.slice(maxLineChars);
    }
    partial = text;
  });
  const close = () => {
    if (partial.length > 0) target.push(stripCr(partial));
    partial = "";
    target.end();
  };
  source.once("end", close);
  source.once("close", close);
}

/**
 * The line as {@link LineStream.recent} keeps it. A cut line is copied through a Buffer:
 * a plain `slice` of a long string can keep the whole original alive in V8.
 */
function truncateKeptLine(line: string): string {
  if (line.length <= MAX_KEPT_LINE_CHARS) return line;
  let end = MAX_KEPT_LINE_CHARS;
  const last = line.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1; // do not split a surrogate pair
  const head = Buffer.from(line.slice(0, end), "utf8").toString("utf8");
  return `${head}… [truncated, ${line.length} chars]`;
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
