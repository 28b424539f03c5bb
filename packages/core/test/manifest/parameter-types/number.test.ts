import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { numberType } from "../../../src/manifest/parameter-types/number.js";

const value = (text: string) => numberType.fromText(text);

describe("number parameter type", () => {
  it("fits finite numbers", () => {
    for (const fits of [0, -2.5, 1e300, Number.MIN_VALUE]) expect(numberType.fits(fits)).toBe(true);
    for (const not of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, "1", false, null])
      expect(numberType.fits(not)).toBe(false);
  });

  it("reads decimal notation, exponent included, ignoring surrounding spaces", () => {
    expect(value("2.5")).toEqual({ ok: true, value: 2.5 });
    expect(value(" 1 ")).toEqual({ ok: true, value: 1 });
    expect(value("1e3")).toEqual({ ok: true, value: 1000 });
    expect(value("-.5")).toEqual({ ok: true, value: -0.5 });
    expect(value("5.")).toEqual({ ok: true, value: 5 });
    expect(value("+1E-2")).toEqual({ ok: true, value: 0.01 });
  });

  it("refuses NaN, Infinity, hex, blanks and words", () => {
    for (const text of ["NaN", "Infinity", "-Infinity", "0x10", "", " ", ".", "1,5", "e3", "1e", "abc"])
      expect(value(text)).toEqual({ ok: false, reason: `expected a number, got ${JSON.stringify(text)}` });
  });

  it("refuses numbers that overflow to Infinity", () => {
    expect(value("1e400")).toEqual({ ok: false, reason: 'expected a finite number, got "1e400"' });
  });

  it("round-trips every finite double through its text", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        // String(-0) is "0": compare as numbers, where -0 === 0.
        const reading = value(String(n));
        expect(reading.ok && reading.value === n).toBe(true);
      }),
    );
  });

  it("reads only what fits", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const reading = value(text);
        if (reading.ok) expect(numberType.fits(reading.value)).toBe(true);
      }),
    );
  });
});
