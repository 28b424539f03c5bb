import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { FrameWriter } from "../../src/framing/frame-writer.js";

/** A writable that takes `highWaterMark` bytes and then asks for a drain. */
function slowSink(highWaterMark: number) {
  const received: string[] = [];
  let release: (() => void) | undefined;
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      received.push(chunk.toString());
      release = callback;
    },
  });
  return { stream, received, drainOne: () => release?.() };
}

describe("FrameWriter", () => {
  it("writes one frame per line and joins frames of one tick into one write", async () => {
    const { stream, received, drainOne } = slowSink(1 << 20);
    const writer = new FrameWriter({ stream });
    writer.write('{"a":1}');
    writer.write('{"b":2}');
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(received).toEqual(['{"a":1}\n{"b":2}\n']);
    drainOne();
    await writer.idle();
  });

  it("queues in order while the stream wants a drain", async () => {
    const { stream, received, drainOne } = slowSink(4);
    const writer = new FrameWriter({ stream });
    writer.write('{"first":1}');
    await new Promise((r) => setImmediate(r));
    writer.write('{"second":2}');
    writer.write('{"third":3}');
    await new Promise((r) => setImmediate(r));
    expect(received).toEqual(['{"first":1}\n']);
    drainOne();
    await new Promise((r) => setImmediate(r));
    expect(received).toEqual(['{"first":1}\n', '{"second":2}\n{"third":3}\n']);
    drainOne();
    await writer.idle();
  });

  it("reports a broken stream once and drops further frames", async () => {
    const errors: Error[] = [];
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        const error = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
        callback(error);
      },
    });
    const writer = new FrameWriter({ stream }, (error) => errors.push(error));
    writer.write("{}");
    await writer.idle();
    writer.write("{}");
    await new Promise((r) => setImmediate(r));
    expect(errors.map((e) => e.message)).toEqual(["write EPIPE"]);
    expect(writer.isBroken).toBe(true);
  });
});
