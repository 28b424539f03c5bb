import { describe, expect, test } from "vitest";
import { canonicalJson } from "../../src/schema/canonical-json.js";

describe("canonicalJson", () => {
  test("objects with the same entries in another order are the same text, at every depth", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { e: 3, f: 2 }] }, b: 1 }),
    );
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  test("list order and value types still count", () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: "1" }));
  });

  test("what JSON cannot write stays undefined, as JSON.stringify says", () => {
    expect(canonicalJson(undefined)).toBeUndefined();
  });
});
