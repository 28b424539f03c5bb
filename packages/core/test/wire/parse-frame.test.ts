import { describe, expect, it } from "vitest";
import { parseFrame } from "../../src/wire/parse-frame.js";

describe("parseFrame: the id's text", () => {
  it.each([
    ['{"jsonrpc":"2.0","id":7,"method":"m"}', undefined],
    ['{"jsonrpc":"2.0","id":7}', undefined],
    ['{"jsonrpc": "2.0", "id": 7, "method": "m"}', undefined],
    ['{"method":"m","params":{"id":1e2},"id":7,"jsonrpc":"2.0"}', undefined],
    ['{"jsonrpc":"2.0","id":1e2,"method":"m"}', "1e2"],
    ['{"jsonrpc":"2.0","id":100.0,"method":"m"}', "100.0"],
    ['{"jsonrpc":"2.0","id":-0,"method":"m"}', "-0"],
    ['{"jsonrpc":"2.0","id":9007199254740993,"method":"m"}', "9007199254740993"],
    ['{"method":"m","params":{"id":5},"id":1E1}', "1E1"],
  ])("%s → idText %s", (text, idText) => {
    const parsed = parseFrame(text);
    expect(parsed.value).toEqual(JSON.parse(text));
    expect(parsed.idText).toBe(idText);
  });
});
