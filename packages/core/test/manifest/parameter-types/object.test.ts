import { describe, expect, it } from "vitest";
import { objectType } from "../../../src/manifest/parameter-types/object.js";

const value = (text: string) => objectType.fromText(text);

describe("object parameter type", () => {
  it("fits JSON objects: not null, not a list, not a class instance", () => {
    expect(objectType.fits({})).toBe(true);
    expect(objectType.fits(Object.create(null))).toBe(true);
    for (const not of [null, [], "{}", 1, new Date(0), new Map()]) expect(objectType.fits(not)).toBe(false);
  });

  it("reads a JSON object", () => {
    expect(value('{"a": [1, {"b": null}]}')).toEqual({ ok: true, value: { a: [1, { b: null }] } });
    expect(value(" {} ")).toEqual({ ok: true, value: {} });
  });

  it("refuses other JSON and text that is not JSON", () => {
    for (const text of ["[1]", "null", '"{}"', "1", "{", "{a: 1}", ""])
      expect(value(text)).toEqual({
        ok: false,
        reason: `expected a JSON object, got ${JSON.stringify(text)}`,
      });
  });

  it("quotes at most 60 characters of a long text", () => {
    const reading = value(`{${"x".repeat(500)}`);
    expect(!reading.ok && reading.reason.length).toBeLessThan(120);
    expect(!reading.ok && reading.reason).toContain("(501 chars)");
  });
});
