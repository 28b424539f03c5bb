import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { FrameWriter } from "../../src/framing/frame-writer.js";
import { turn } from "../helpers/turns.js";

describe("FrameWriter pressure marks", () => {
  it("reports crossing the high mark once, and the low mark once the reader caught up", async () => {
    const callbacks: (() => void)[] = [];
    const stream = new Writable({
      highWaterMark: 16,
      write(_chunk, _encoding, callback) {
        callbacks.push(() => callback());
      },
    });
    const changes: boolean[] = [];
    const writer = new FrameWriter({ stream }, undefined, {
      highWaterBytes: 100,
      lowWaterBytes: 20,
      onChange: (over) => changes.push(over),
    });
    const frame = "x".repeat(39); // 40 bytes with its line ending
    writer.write(frame);
    writer.write(frame);
    expect(changes).toEqual([]);
    writer.write(frame);
    expect(changes).toEqual([true]);
    expect(writer.pendingBytes).toBe(120);
    await turn();
    writer.write(frame);
    expect(changes).toEqual([true]);
    callbacks.shift()?.();
    await turn();
    // 40 bytes still queued: above the low mark.
    expect(changes).toEqual([true]);
    while (callbacks.length > 0) {
      callbacks.shift()?.();
      await turn();
    }
    expect(writer.pendingBytes).toBe(0);
    expect(changes).toEqual([true, false]);
  });
});
