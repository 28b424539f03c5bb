import { describe, expect, it } from "vitest";
import { classifyFrame } from "../../src/wire/classify-frame.js";

const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;

/** line → the fields of its class that matter (the rest, e.g. `frame`, is checked below). */
const TABLE: [line: string, expected: Record<string, unknown>][] = [
  // Frames.
  ['{"jsonrpc":"2.0","id":1,"method":"describe"}', { kind: "request", id: 1, method: "describe" }],
  ['  {"jsonrpc":"2.0","id":"a","method":"m","params":[1]}', { kind: "request", id: "a", params: [1] }],
  ['{"jsonrpc":"2.0","id":null,"method":"m"}', { kind: "request", id: null }],
  ['{"jsonrpc":"2.0","method":"executa/progress","params":{}}', { kind: "notification", params: {} }],
  [
    '{"jsonrpc":"2.0","id":9007199254740993,"method":"m"}',
    { kind: "request", id: 9007199254740992, idText: "9007199254740993" },
  ],
  ['{"jsonrpc":"2.0","id":1e400,"result":1}', { kind: "response", id: Infinity, idText: "1e400" }],
  ['{"jsonrpc":"2.0","id":1,"result":null}', { kind: "response", outcome: "result", id: 1 }],
  ['{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}', { kind: "response", outcome: "error" }],
  ['{"jsonrpc":"2.0","id":null,"error":{"code":-32700}}', { kind: "response", outcome: "error", id: null }],
  [`{"jsonrpc":"2.0","result":${deep}}`, { kind: "response", id: null }],
  [
    '{"jsonrpc":"2.0","id":4,"__file_transport":"/tmp/r.json"}',
    { kind: "response", outcome: "file-transport", id: 4, path: "/tmp/r.json" },
  ],
  ['{"jsonrpc":"2.0","id":1,"result":1,"method":"m"}', { kind: "request", method: "m" }],
  // Not frames: not JSON-RPC at all.
  ["starting up...", { kind: "not-a-frame", reason: "not-json", attempted: undefined }],
  ["", { kind: "not-a-frame", reason: "not-json" }],
  ["\uFEFF{}", { kind: "not-a-frame", reason: "not-json" }],
  ["[1, 2, 3]", { kind: "not-a-frame", reason: "batch", attempted: undefined }],
  ['[{"jsonrpc":"2.0","id":1,"method":"m"}]', { kind: "not-a-frame", reason: "batch" }],
  ['"text"', { kind: "not-a-frame", reason: "not-an-object" }],
  ["null", { kind: "not-a-frame", reason: "not-an-object" }],
  ['{"level":"info","msg":"log"}', { kind: "not-a-frame", reason: "missing-jsonrpc", attempted: undefined }],
  // Not frames: broken JSON-RPC, with the id to answer with.
  ['{"id":1,"method":"m"}', { reason: "missing-jsonrpc", attempted: "request", replyId: 1 }],
  ['{"jsonrpc":"1.0","id":1,"result":1}', { reason: "wrong-jsonrpc", attempted: "response", replyId: 1 }],
  ['{"id":1,"result":1}', { reason: "missing-jsonrpc", attempted: "response" }],
  [
    '{"jsonrpc":"2.0","id":2,"method":5}',
    { reason: "method-not-a-string", attempted: "request", replyId: 2 },
  ],
  ['{"jsonrpc":"2.0","id":true,"method":"m"}', { reason: "invalid-id", attempted: "request", replyId: null }],
  ['{"jsonrpc":"2.0","id":{"x":1},"result":1}', { reason: "invalid-id", attempted: "response" }],
  ['{"jsonrpc":"2.0","id":3,"method":"m","params":5}', { reason: "invalid-params", replyId: 3 }],
  ['{"jsonrpc":"2.0","id":5}', { reason: "neither-request-nor-response", attempted: "message", replyId: 5 }],
  ['{"jsonrpc":"2.0"}', { reason: "neither-request-nor-response", replyId: null }],
  [
    '{"jsonrpc":"2.0","id":6,"__file_transport":7}',
    { reason: "neither-request-nor-response", attempted: "message", replyId: 6 },
  ],
  [
    '{"jsonrpc":"2.0","id":18446744073709551616}',
    {
      reason: "neither-request-nor-response",
      replyId: 18446744073709552000,
      replyIdText: "18446744073709551616",
    },
  ],
];

describe("classifyFrame", () => {
  it.each(TABLE)("%s", (line, expected) => {
    const found = classifyFrame(line);
    const { attempted, ...rest } = expected;
    const match = "kind" in rest ? rest : { kind: "not-a-frame", ...rest };
    expect(found).toMatchObject(
      "attempted" in expected && attempted !== undefined ? { ...match, attempted } : match,
    );
    // `attempted: undefined` in the table: the line is no broken frame, only not JSON-RPC.
    if ("attempted" in expected && attempted === undefined) expect(found).not.toHaveProperty("attempted");
  });

  it("keeps the parsed object of every JSON object line", () => {
    const line = '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1]}}';
    expect(classifyFrame(line)).toMatchObject({ frame: JSON.parse(line) });
    expect(classifyFrame('{"level":"info"}')).toMatchObject({ frame: { level: "info" } });
    expect(classifyFrame("[1]")).not.toHaveProperty("frame");
  });

  it("says why, as a phrase the peer puts in its -32600 and -32700 answers", () => {
    expect(classifyFrame('{"jsonrpc":"2.0","id":2,"method":5}')).toMatchObject({
      why: "method must be a string",
    });
    expect(classifyFrame('{"jsonrpc":"1.0","method":"m"}')).toMatchObject({ why: 'jsonrpc must be "2.0"' });
    expect(classifyFrame("{oops")).toMatchObject({ why: expect.stringMatching(/JSON/) });
  });
});
