import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { createLogger, type FrameClass, streamTransport } from "@executa/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StdoutDemux } from "../../src/process/stdout-demux.js";
import { tempDir } from "../helpers/calls.js";

describe("StdoutDemux", () => {
  let dir: ReturnType<typeof tempDir>;
  let source: PassThrough;
  let frames: string[];
  let classes: FrameClass["kind"][];
  let debug: string[];
  let logs: string[];
  let ended: () => Promise<void>;

  beforeEach(() => {
    dir = tempDir();
    source = new PassThrough();
    frames = [];
    classes = [];
    debug = [];
    logs = [];
    const plugin = streamTransport(source, { stream: new PassThrough() }, { maxLineBytes: 256 });
    const demux = new StdoutDemux(plugin, {
      maxFrameBytes: 256,
      onDebugLine: (line) => debug.push(line),
      log: createLogger("test", { level: "debug", write: (line) => void logs.push(line) }),
    });
    const end = new Promise<void>((resolve) => {
      demux.open({
        line: (event) => frames.push(`unexpected line event ${event.kind}`),
        frame: (frame, text) => {
          frames.push(text);
          classes.push(frame.kind);
        },
        end: resolve,
      });
    });
    ended = () => end;
  });
  afterEach(() => dir.remove());

  it("passes frames, diverts everything else, and keeps the order around file transport", async () => {
    const file = join(dir.path, "resp.json");
    writeFileSync(file, '{\n  "jsonrpc": "2.0",\n  "id": 2,\n  "result": {"a": 1}\n}\n');
    source.write('{"jsonrpc":"2.0","id":1,"result":1}\n');
    source.write("plain text\n");
    source.write(`{"jsonrpc":"2.0","id":2,"__file_transport":${JSON.stringify(file)}}\n`);
    source.write('{"jsonrpc":"2.0","id":3,"result":3}\n');
    source.write('{"not":"a frame"}\n');
    source.write(`${"y".repeat(300)}\n`);
    source.end('{"jsonrpc":"2.0","method":"executa/progress"}');
    await ended();
    expect(frames).toEqual([
      '{"jsonrpc":"2.0","id":1,"result":1}',
      '{\n  "jsonrpc": "2.0",\n  "id": 2,\n  "result": {"a": 1}\n}\n',
      '{"jsonrpc":"2.0","id":3,"result":3}',
      '{"jsonrpc":"2.0","method":"executa/progress"}',
    ]);
    expect(frames.map((f) => JSON.parse(f))[1]).toEqual({ jsonrpc: "2.0", id: 2, result: { a: 1 } });
    // Each line is classified once, by the demux: the peer gets the class with the text.
    expect(classes).toEqual(["response", "response", "response", "notification"]);
    expect(debug).toEqual(["plain text", '{"not":"a frame"}']);
    expect(logs.some((line) => line.includes("300 byte stdout line"))).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it("turns an unusable file into an error response for that id", async () => {
    const file = join(dir.path, "bad.json");
    writeFileSync(file, "not json");
    source.write(`{"jsonrpc":"2.0","id":"a","__file_transport":${JSON.stringify(file)}}\n`);
    const sub = join(dir.path, "sub");
    mkdirSync(sub);
    source.end(`{"jsonrpc":"2.0","id":"b","__file_transport":${JSON.stringify(sub)}}\n`);
    await ended();
    const [a, b] = frames.map((f) => JSON.parse(f));
    expect(a).toMatchObject({
      id: "a",
      error: { code: -32603, message: expect.stringMatching(/does not hold JSON/) },
    });
    expect(b).toMatchObject({ id: "b", error: { message: expect.stringMatching(/not a regular file/) } });
    expect(existsSync(file)).toBe(true); // only an accepted file is deleted
  });
});

describe("StdoutDemux routes each class of core's classifyFrame", () => {
  it("sends lines without JSON-RPC members to debug, id-less responses to orphans, the rest to the peer", async () => {
    const source = new PassThrough();
    const routed: [string, string][] = [];
    const demux = new StdoutDemux(streamTransport(source, { stream: new PassThrough() }), {
      maxFrameBytes: 1024,
      onDebugLine: (line) => routed.push(["debug", line]),
      onOrphanResponse: (frame) => routed.push(["orphan", JSON.stringify(frame)]),
      log: createLogger("test", { level: "error", write: () => {} }),
    });
    const ended = new Promise<void>((resolve) => {
      demux.open({
        line: (event) => routed.push(["line event", event.kind]),
        frame: (_frame, text) => routed.push(["peer", text]),
        end: resolve,
      });
    });
    const lines: [string, string][] = [
      ["debug", "plain text"],
      ["debug", '{"level":"info","msg":"log"}'],
      ["debug", "[1, 2, 3]"],
      ["orphan", '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'],
      ["orphan", '{"jsonrpc":"2.0","result":1}'],
      ["peer", '{"jsonrpc":"2.0","id":1,"result":1}'],
      ["peer", '{"jsonrpc":"2.0","method":"executa/progress"}'],
      // Broken frames: the peer answers a request with -32600 and drops a response with a log.
      ["peer", '{"id":2,"method":"m"}'],
      ["peer", '{"result":1}'],
      ["peer", '{"jsonrpc":"2.0"}'],
      ["peer", '{"jsonrpc":"2.0","id":{"x":1},"result":1}'],
    ];
    for (const [, line] of lines) source.write(`${line}\n`);
    source.end();
    await ended;
    expect(routed).toEqual(lines);
  });
});
