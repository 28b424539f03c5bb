import { describe, expect, it } from "vitest";
import { booleanType } from "../../../src/manifest/parameter-types/boolean.js";

const value = (text: string) => booleanType.fromText(text);

describe("boolean parameter type", () => {
  it("fits true and false only", () => {
    expect(booleanType.fits(true)).toBe(true);
    expect(booleanType.fits(false)).toBe(true);
    for (const not of ["true", 1, 0, null, undefined]) expect(booleanType.fits(not)).toBe(false);
  });

  it("reads the words true and false in any letter case, ignoring surrounding spaces", () => {
    for (const text of ["true", "TRUE", "True", " true\n"])
      expect(value(text)).toEqual({ ok: true, value: true });
    for (const text of ["false", "FALSE", "False", "\tfalse "])
      expect(value(text)).toEqual({ ok: true, value: false });
  });

  it("refuses yes/no, on/off, 1/0 and everything else", () => {
    for (const text of ["yes", "no", "on", "off", "1", "0", "", "t", "truee", "maybe"])
      expect(value(text)).toEqual({
        ok: false,
        reason: `expected true or false, got ${JSON.stringify(text)}`,
      });
  });
});
