import { describe, expect, it } from "vitest";
import { type LineEvent, LineReader } from "../../src/framing/line-reader.js";

function collect(chunks: Buffer[], maxLineBytes?: number): LineEvent[] {
  const events: LineEvent[] = [];
  const reader = new LineReader((event) => events.push(event), { maxLineBytes });
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
  return events;
}

const lines = (events: LineEvent[]) => events.map((e) => (e.kind === "line" ? e.text : `<${e.kind}>`));

describe("LineReader", () => {
  const input = Buffer.from('{"a":"héllo ✓ 😀"}\n{"b":2}\r\n\n  \n{"c":3}\n', "utf8");

  it("splits on LF, tolerates CRLF and skips blank lines", () => {
    expect(lines(collect([input]))).toEqual(['{"a":"héllo ✓ 😀"}', '{"b":2}', '{"c":3}']);
  });

  it("gives the same lines for a split at every byte boundary, inside multi-byte characters too", () => {
    const expected = lines(collect([input]));
    for (let cut = 1; cut < input.length; cut++) {
      expect(lines(collect([input.subarray(0, cut), input.subarray(cut)])), `cut at ${cut}`).toEqual(
        expected,
      );
    }
  });

  it("gives the same lines when fed one byte at a time", () => {
    const bytes = [...input].map((b) => Buffer.from([b]));
    expect(lines(collect(bytes))).toEqual(lines(collect([input])));
  });

  it("emits a last line that has no line ending at end of input", () => {
    expect(lines(collect([Buffer.from('{"x":1}\n{"y":2}')]))).toEqual(['{"x":1}', '{"y":2}']);
  });

  it("reports invalid UTF-8 and keeps reading", () => {
    const bad = Buffer.concat([Buffer.from([0xff, 0xfe, 0x41]), Buffer.from("\nok\n")]);
    expect(lines(collect([bad]))).toEqual(["<invalid-utf8>", "ok"]);
  });

  it("accepts a line of exactly the cap, with LF or CRLF, and rejects one byte more", () => {
    const max = 1024;
    const exact = "a".repeat(max);
    expect(lines(collect([Buffer.from(`${exact}\n`)], max))).toEqual([exact]);
    expect(lines(collect([Buffer.from(`${exact}\r\n`)], max))).toEqual([exact]);
    expect(lines(collect([Buffer.from(`${exact}a\nnext\n`)], max))).toEqual(["<oversized>", "next"]);
  });

  it("accepts a line of exactly 16 MiB by default", () => {
    const body = Buffer.alloc(16 * 1024 * 1024, 0x61);
    const events = collect([body.subarray(0, 7_000_000), body.subarray(7_000_000), Buffer.from("\n")]);
    expect(events).toHaveLength(1);
    expect(events[0]?.kind === "line" && events[0].text.length).toBe(16 * 1024 * 1024);
  });

  it("discards an oversized line while it streams and reports its size", () => {
    const max = 100;
    const events = collect(
      [Buffer.from("x".repeat(80)), Buffer.from("y".repeat(80)), Buffer.from("z\nnext\n")],
      max,
    );
    expect(events).toEqual([
      { kind: "oversized", bytes: 161 },
      { kind: "line", text: "next" },
    ]);
  });

  it("streams a 100 MiB line without a newline in bounded memory", () => {
    const events: LineEvent[] = [];
    const reader = new LineReader((event) => events.push(event));
    const chunk = Buffer.alloc(1024 * 1024, 0x62);
    const before = process.memoryUsage().arrayBuffers;
    let peak = 0;
    for (let i = 0; i < 100; i++) {
      reader.push(chunk);
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
    }
    reader.push(Buffer.from('\n{"after":true}\n'));
    expect(events).toEqual([
      { kind: "oversized", bytes: 100 * 1024 * 1024 },
      { kind: "line", text: '{"after":true}' },
    ]);
    // At most the 16 MiB cap is ever held, never the 100 MiB line.
    expect(peak).toBeLessThan(40 * 1024 * 1024);
  });
});
