/** Receives each line of a {@link LineStream}. */
export type LineListener = (line: string) => void;

/**
 * A stream of text lines (the plugin's stderr, or the non-protocol lines it wrote to
 * stdout): subscribe with {@link onLine}, iterate with `for await`, or read the last
 * lines kept in {@link recent}. Ends when the plugin's stream closes.
 */
export class LineStream implements AsyncIterable<string> {
  private readonly listeners = new Set<LineListener>();
  private readonly kept: string[] = [];
  private ended = false;
  private readonly endWaiters = new Set<() => void>();

  /** @param keep How many of the latest lines {@link recent} holds. */
  constructor(private readonly keep = 200) {}

  /** The latest lines, oldest first (at most the `keep` given to the constructor). */
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
    this.kept.push(line);
    if (this.kept.length > this.keep) this.kept.splice(0, this.kept.length - this.keep);
    for (const listener of this.listeners) listener(line);
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

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
