import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { streamTransport } from "../../src/transport/stream-transport.js";
import { turn } from "../helpers/turns.js";

function opened(input: PassThrough) {
  const lines: string[] = [];
  let ends = 0;
  const transport = streamTransport(input, { stream: new PassThrough() });
  transport.open({
    line: (event) => lines.push(event.kind === "line" ? event.text : `<${event.kind}>`),
    frame: () => lines.push("<frame>"),
    end: () => {
      ends += 1;
    },
  });
  return { transport, lines, ends: () => ends };
}

describe("streamTransport", () => {
  it("hands over whole lines; a last line without a line ending comes with the end, once", async () => {
    const input = new PassThrough();
    const { lines, ends } = opened(input);
    input.write("one\ntw");
    input.write("o\nthree");
    input.end();
    await turn();
    expect(lines).toEqual(["one", "two", "three"]);
    expect(ends()).toBe(1);
  });

  it("holds lines while paused and delivers them on resume", async () => {
    const input = new PassThrough();
    const { transport, lines } = opened(input);
    transport.pause();
    input.write("held\n");
    await turn();
    expect(lines).toEqual([]);
    transport.resume();
    await turn();
    expect(lines).toEqual(["held"]);
  });

  it("after close, reads nothing more but still reports the end", async () => {
    const input = new PassThrough();
    const { transport, lines, ends } = opened(input);
    input.write("before\n");
    await turn();
    transport.close();
    transport.resume();
    input.write("after\n");
    input.end("unterminated");
    input.resume();
    await turn();
    await turn();
    expect(lines).toEqual(["before"]);
    expect(ends()).toBe(1);
  });
});
