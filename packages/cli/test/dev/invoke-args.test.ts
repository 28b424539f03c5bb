import type { ToolManifest } from "@executa/core";
import { describe, expect, it } from "vitest";
import { InvokeArgsError, parseInvokeArgs, splitWords } from "../../src/dev/invoke-args.js";

const tool: ToolManifest = {
  name: "t",
  description: "T.",
  parameters: [
    { name: "s", type: "string" },
    { name: "i", type: "integer" },
    { name: "n", type: "number" },
    { name: "b", type: "boolean" },
    { name: "tags", type: "array", items: { type: "string" } },
    { name: "ids", type: "array", items_type: "integer" },
    { name: "o", type: "object" },
  ],
};

describe("parseInvokeArgs", () => {
  it("converts key=value pairs by the parameter types", () => {
    expect(
      parseInvokeArgs(["s=42", "i=-3", "n=2.5", "b=TRUE", "tags=a, b", "ids=[1,2]", 'o={"k":[1]}'], tool),
    ).toEqual({ s: "42", i: -3, n: 2.5, b: true, tags: ["a, b"], ids: [1, 2], o: { k: [1] } });
    expect(parseInvokeArgs(['tags=["x y"]', "b=false", "s=", "ids=7"], tool)).toEqual({
      tags: ["x y"],
      b: false,
      s: "",
      ids: [7],
    });
    expect(parseInvokeArgs(["tags="], tool)).toEqual({ tags: [] });
  });

  it("reads parameters the schema does not name as JSON when they parse", () => {
    expect(parseInvokeArgs(["x=3", "y=true", "z=hello", "w=[1]"])).toEqual({
      x: 3,
      y: true,
      z: "hello",
      w: [1],
    });
  });

  it("merges JSON objects and pairs in order", () => {
    expect(parseInvokeArgs(['{"s": "a", "i": 1}', "i=2"], tool)).toEqual({ s: "a", i: 2 });
  });

  it("names the parameter of a bad value", () => {
    const bad = (input: string, message: RegExp) =>
      expect(() => parseInvokeArgs([input], tool)).toThrow(
        expect.objectContaining({ message: expect.stringMatching(message) }),
      );
    bad("i=1.5", /^i: expected an integer/);
    bad("n=abc", /^n: expected a number/);
    bad("b=maybe", /^b: expected true or false/);
    bad("b=yes", /^b: expected true or false, got "yes"/);
    bad("b=on", /^b: expected true or false/);
    bad("ids=1,2", /^ids: expected a JSON list or an integer, got "1,2"/);
    bad("ids=[1", /^ids: expected a JSON list, got "\[1"/);
    bad("o=[1]", /^o: expected a JSON object/);
    bad("{oops", /not valid JSON/);
    bad("[1]", /neither key=value nor a JSON object/);
    bad("justaword", /neither key=value nor a JSON object/);
    bad("__proto__=1", /cannot be an argument name/);
    expect(() => parseInvokeArgs(["i=x"], tool)).toThrow(InvokeArgsError);
  });
});

describe("splitWords", () => {
  it("splits on whitespace, with quotes at a word's or value's start", () => {
    expect(splitWords(`greet name="Ann Lee" nick='A "B"'  x=1`)).toEqual([
      "greet",
      "name=Ann Lee",
      'nick=A "B"',
      "x=1",
    ]);
    expect(splitWords(String.raw`a=b\ c d`)).toEqual(["a=b c", "d"]);
    expect(splitWords(`say=it's`)).toEqual(["say=it's"]);
  });

  it("keeps JSON values whole, spaces and quotes included", () => {
    expect(splitWords(`remember key=a value={"v": [1, "} ]"]} next=1`)).toEqual([
      "remember",
      "key=a",
      'value={"v": [1, "} ]"]}',
      "next=1",
    ]);
    expect(splitWords(`tags=["a b", "c"]`)).toEqual(['tags=["a b", "c"]']);
  });

  it("refuses unclosed quotes and brackets", () => {
    expect(() => splitWords(`name="Ann`)).toThrow(/unclosed " quote/);
    expect(() => splitWords(`o={"a": 1`)).toThrow(/unclosed \{/);
    expect(() => splitWords(`o={"a": 1]`)).toThrow(/unbalanced \]/);
  });
});
