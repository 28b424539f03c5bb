import { PassThrough } from "node:stream";

/** Both ends of an in-memory line connection: write lines in, await parsed frames out. */
export function memoryPipe() {
  const input = new PassThrough();
  const output = new PassThrough();
  const frames: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  let buffered = "";
  output.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    let lf = buffered.indexOf("\n");
    while (lf !== -1) {
      const line = buffered.slice(0, lf);
      buffered = buffered.slice(lf + 1);
      frames.push(JSON.parse(line));
      lf = buffered.indexOf("\n");
    }
    for (const wake of waiters.splice(0)) wake();
  });
  const send = (frame: unknown) =>
    input.write(`${typeof frame === "string" ? frame : JSON.stringify(frame)}\n`);
  /** Resolves once `count` frames arrived in total; returns them all. */
  const waitFor = async (count: number, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs;
    while (frames.length < count) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${count} frames; got ${JSON.stringify(frames)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return frames;
  };
  /** The frame answering `id`, once it arrived. */
  const reply = async (id: unknown, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = frames.find((f) => f.id === id && !("method" in f));
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no reply for id ${JSON.stringify(id)}; got ${JSON.stringify(frames)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  return { input, output, frames, send, waitFor, reply };
}
