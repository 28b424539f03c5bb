import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringType } from "../../../src/manifest/parameter-types/string.js";

describe("string parameter type", () => {
  it("fits strings only", () => {
    expect(stringType.fits("")).toBe(true);
    expect(stringType.fits("a")).toBe(true);
    for (const value of [1, true, null, undefined, ["a"], { a: "b" }])
      expect(stringType.fits(value)).toBe(false);
  });

  it("reads any text as typed, spaces and the empty text included", () => {
    expect(stringType.fromText(" 1 ")).toEqual({ ok: true, value: " 1 " });
    expect(stringType.fromText("")).toEqual({ ok: true, value: "" });
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(stringType.fromText(text)).toEqual({ ok: true, value: text });
      }),
    );
  });

  it("has no type-specific schema fields", () => {
    expect(stringType.schemaFields).toEqual([]);
  });
});
