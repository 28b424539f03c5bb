import { registerCodec } from "@executa/core";
import { firstRepeatedElement, repeatedElementProblem } from "@executa/core/internal";
import { describe, expect, it } from "vitest";

describe("firstRepeatedElement", () => {
  it("finds the first element equal to an earlier one, and which one it equals", () => {
    expect(firstRepeatedElement(["a", "b", "c"])).toBeUndefined();
    expect(firstRepeatedElement(["a", "b", "b", "a"])).toEqual({ index: 2, first: 1 });
    expect(firstRepeatedElement([])).toBeUndefined();
  });

  it("compares JSON values: objects by content in any key order, arrays in order", () => {
    expect(
      firstRepeatedElement([
        { a: 1, b: [2] },
        { b: [2], a: 1 },
      ]),
    ).toEqual({ index: 1, first: 0 });
    expect(firstRepeatedElement([{ a: { x: 1, y: 2 } }, { a: { y: 2, x: 1 } }])).toEqual({
      index: 1,
      first: 0,
    });
    expect(
      firstRepeatedElement([
        [1, 2],
        [2, 1],
      ]),
    ).toBeUndefined();
    expect(firstRepeatedElement([{ a: 1 }, { a: 2 }])).toBeUndefined();
  });

  it("tells a value from its text, and a string from the JSON text of an object", () => {
    expect(firstRepeatedElement([1, "1"])).toBeUndefined();
    expect(firstRepeatedElement([true, "true", null, "null"])).toBeUndefined();
    expect(firstRepeatedElement(["[1]", [1]])).toBeUndefined();
    expect(firstRepeatedElement(['{"a":1}', { a: 1 }])).toBeUndefined();
    expect(firstRepeatedElement([0, -0])).toEqual({ index: 1, first: 0 });
  });

  it("compares a decoded value (a Date) as the JSON it is sent as", () => {
    const at = "2026-01-31T09:00:00.000Z";
    expect(firstRepeatedElement([new Date(at), new Date(at)])).toEqual({ index: 1, first: 0 });
    expect(firstRepeatedElement([new Date(at), at])).toEqual({ index: 1, first: 0 });
    expect(firstRepeatedElement([new Date(at), new Date(0)])).toBeUndefined();
  });

  it("compares a registered codec's value as the text it is sent as", () => {
    const unregister = registerCodec<bigint>({
      name: "test-bigint",
      typeName: "bigint",
      reflectedAs: BigInt,
      jsonSchema: { type: "string", pattern: "^-?[0-9]+$" },
      description: "integer in decimal digits",
      decode: (text) => (/^-?[0-9]+$/.test(text) ? BigInt(text) : undefined),
      encode: (value) => value.toString(),
      is: (value): value is bigint => typeof value === "bigint",
    });
    try {
      expect(firstRepeatedElement([1n, 2n, 1n])).toEqual({ index: 2, first: 0 });
      expect(firstRepeatedElement([{ id: 1n }, { id: 2n }])).toBeUndefined();
    } finally {
      unregister();
    }
  });

  it("says the problem with both indices", () => {
    expect(repeatedElementProblem({ index: 3, first: 1 })).toBe(
      "must have unique elements: element 3 repeats element 1",
    );
  });
});
