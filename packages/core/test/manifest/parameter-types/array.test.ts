import { describe, expect, it } from "vitest";
import { arrayType } from "../../../src/manifest/parameter-types/array.js";
import { booleanType } from "../../../src/manifest/parameter-types/boolean.js";
import { integerType } from "../../../src/manifest/parameter-types/integer.js";
import { objectType } from "../../../src/manifest/parameter-types/object.js";

describe("array parameter type", () => {
  it("fits lists", () => {
    expect(arrayType.fits([])).toBe(true);
    expect(arrayType.fits([1, "a"])).toBe(true);
    for (const not of ["[]", {}, null, 1]) expect(arrayType.fits(not)).toBe(false);
  });

  it("declares its element type with items or items_type", () => {
    expect(arrayType.schemaFields).toEqual(["items", "items_type"]);
  });

  it("reads a JSON list as parsed, elements unchecked", () => {
    expect(arrayType.fromText('["a", 1]', integerType)).toEqual({ ok: true, value: ["a", 1] });
    expect(arrayType.fromText(" [] ")).toEqual({ ok: true, value: [] });
  });

  it("reads blank text as the empty list", () => {
    expect(arrayType.fromText("")).toEqual({ ok: true, value: [] });
    expect(arrayType.fromText("  ", integerType)).toEqual({ ok: true, value: [] });
  });

  it("reads other text as one element of the element type (strings by default)", () => {
    expect(arrayType.fromText("a, b")).toEqual({ ok: true, value: ["a, b"] });
    expect(arrayType.fromText("5", integerType)).toEqual({ ok: true, value: [5] });
    expect(arrayType.fromText("TRUE", booleanType)).toEqual({ ok: true, value: [true] });
    expect(arrayType.fromText('{"a":1}', objectType)).toEqual({ ok: true, value: [{ a: 1 }] });
  });

  it("refuses text starting with [ that is not a JSON list, and elements that do not read", () => {
    expect(arrayType.fromText("[1")).toEqual({ ok: false, reason: 'expected a JSON list, got "[1"' });
    expect(arrayType.fromText("1,2", integerType)).toEqual({
      ok: false,
      reason: 'expected a JSON list or an integer, got "1,2"',
    });
  });
});
