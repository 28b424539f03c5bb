import { PassThrough } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log/logger.js";
import { JsonRpcPeer } from "../../src/rpc/peer.js";
import { streamTransport } from "../../src/transport/stream-transport.js";
import { topLevelMemberText } from "../../src/wire/parse-frame.js";
import { turn } from "../helpers/turns.js";

const MAX_FRAME_BYTES = 64 * 1024;
const DEEP = 20_000;

type IdForm = "string" | "number" | "big" | "negative-big" | "exponent";
type Item =
  | { kind: "request"; idForm: IdForm }
  | { kind: "notification" }
  | { kind: "malformed"; junk: string }
  | { kind: "bad-method"; idForm: IdForm }
  | { kind: "not-an-object" }
  | { kind: "oversized" }
  | { kind: "deep-response" }
  | { kind: "deep-request"; idForm: IdForm }
  | { kind: "response-without-jsonrpc" }
  | { kind: "blank"; spaces: number }
  | { kind: "invalid-utf8" };

/** What the peer must write for one item: the answer's id text and its error code (0: a result). */
interface Expected {
  idText: string;
  code: number;
}

function idText(form: IdForm, index: number): string {
  switch (form) {
    case "string":
      return JSON.stringify(`req-${index}`);
    case "number":
      return String(index);
    case "big":
      return (2n ** 53n + 1n + BigInt(index) * 2n).toString();
    case "negative-big":
      return (-(2n ** 64n) - BigInt(index)).toString();
    case "exponent":
      return `${index}e0`;
  }
}

const deep = `${"[".repeat(DEEP)}${"]".repeat(DEEP)}`;

function render(item: Item, index: number): { bytes: Buffer; expected?: Expected } {
  const text = (s: string) => Buffer.from(s, "utf8");
  switch (item.kind) {
    case "request": {
      const id = idText(item.idForm, index);
      return {
        bytes: text(`{"jsonrpc":"2.0","id":${id},"method":"echo","params":{"n":${index}}}`),
        expected: { idText: id, code: 0 },
      };
    }
    case "notification":
      return { bytes: text(`{"jsonrpc":"2.0","method":"echo","params":[${index}]}`) };
    case "malformed":
      return { bytes: text(`{bad ${item.junk}`), expected: { idText: "null", code: -32700 } };
    case "bad-method": {
      const id = idText(item.idForm, index);
      return {
        bytes: text(`{"jsonrpc":"2.0","id":${id},"method":5}`),
        expected: { idText: id, code: -32600 },
      };
    }
    case "not-an-object":
      return { bytes: text(`[${index}]`), expected: { idText: "null", code: -32600 } };
    case "oversized":
      return {
        bytes: text(
          `{"jsonrpc":"2.0","id":${index},"method":"echo","params":["${"x".repeat(MAX_FRAME_BYTES)}"]}`,
        ),
        expected: { idText: "null", code: -32600 },
      };
    case "deep-response":
      return { bytes: text(`{"jsonrpc":"2.0","result":${deep}}`) };
    case "deep-request": {
      const id = idText(item.idForm, index);
      return {
        bytes: text(`{"jsonrpc":"2.0","id":${id},"method":"echo","params":${deep}}`),
        expected: { idText: id, code: -32603 },
      };
    }
    case "response-without-jsonrpc":
      return { bytes: text(`{"id":${index},"result":${index}}`) };
    case "blank":
      return { bytes: text(" ".repeat(item.spaces)) };
    case "invalid-utf8":
      return { bytes: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), expected: { idText: "null", code: -32700 } };
  }
}

const idForm = fc.constantFrom<IdForm>("string", "number", "big", "negative-big", "exponent");
const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant("request" as const), idForm }) },
  { weight: 2, arbitrary: fc.constant({ kind: "notification" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("malformed" as const),
      junk: fc.string({ maxLength: 20 }).map((s) => s.replace(/[\r\n]/g, "")),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("bad-method" as const), idForm }) },
  { weight: 1, arbitrary: fc.constant({ kind: "not-an-object" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "oversized" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "deep-response" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("deep-request" as const), idForm }) },
  { weight: 1, arbitrary: fc.constant({ kind: "response-without-jsonrpc" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("blank" as const), spaces: fc.nat({ max: 3 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "invalid-utf8" as const }) },
);

/** Feeds `chunks` to a fresh peer and returns every line it wrote. */
async function run(chunks: Buffer[]): Promise<{ lines: string[]; logs: string[] }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = "";
  output.on("data", (chunk: Buffer) => {
    written += chunk.toString("utf8");
  });
  const logs: string[] = [];
  const ended = new Promise<void>((resolve) => {
    const peer = new JsonRpcPeer({
      transport: streamTransport(input, { stream: output }, { maxLineBytes: MAX_FRAME_BYTES }),
      log: createLogger("fuzz", { level: "debug", write: (line) => void logs.push(line) }),
      maxFrameBytes: MAX_FRAME_BYTES,
      fileTransportThresholdBytes: Number.POSITIVE_INFINITY,
      handleRequest: (request) => request.params ?? null,
      onInputEnd: () => void peer.flushed().then(resolve),
    });
  });
  for (const chunk of chunks) input.write(chunk);
  input.end();
  await ended;
  await turn();
  return { lines: written.split("\n").filter((line) => line !== ""), logs };
}

/** `bytes` cut at the given fractions of its length. */
function cut(bytes: Buffer, fractions: number[]): Buffer[] {
  const points = [...new Set(fractions.map((f) => Math.floor(f * bytes.length)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    if (point > start) chunks.push(bytes.subarray(start, point));
    start = Math.max(start, point);
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

describe("framing and routing under random input (property)", () => {
  it("answers every valid request exactly once with its exact id, and each bad line with its code", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(item, fc.boolean()), { minLength: 1, maxLength: 25 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }),
        async (items, fractions) => {
          const expected: Expected[] = [];
          const parts: Buffer[] = [];
          items.forEach(([entry, crlf], index) => {
            const { bytes, expected: answer } = render(entry, index);
            parts.push(bytes, Buffer.from(crlf ? "\r\n" : "\n"));
            if (answer) expected.push(answer);
          });
          const { lines, logs } = await run(cut(Buffer.concat(parts), fractions));
          expect(logs.filter((line) => /could not be handled/.test(line))).toEqual([]);
          const actual = lines.map((line): Expected => {
            const frame = JSON.parse(line) as { result?: unknown; error?: { code: number } };
            return { idText: topLevelMemberText(line, "id") ?? "(none)", code: frame.error?.code ?? 0 };
          });
          const key = (e: Expected) => `${e.idText} ${e.code}`;
          expect(actual.map(key).sort()).toEqual(expected.map(key).sort());
          for (const line of lines) {
            const frame = JSON.parse(line) as { result?: { n: number } };
            if (frame.result) expect(line).toMatch(/^\{"jsonrpc":"2\.0","id":/);
          }
        },
      ),
      { seed: 42, numRuns: 200, interruptAfterTimeLimit: 8_000, markInterruptAsFailure: false },
    );
  }, 30_000);
});
