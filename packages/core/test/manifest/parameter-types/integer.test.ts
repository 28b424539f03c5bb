import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { integerType } from "../../../src/manifest/parameter-types/integer.js";

const value = (text: string) => integerType.fromText(text);

describe("integer parameter type", () => {
  it("fits numbers without a fraction", () => {
    for (const fits of [0, -3, 2 ** 53, 1e3]) expect(integerType.fits(fits)).toBe(true);
    for (const not of [1.5, Number.NaN, Number.POSITIVE_INFINITY, "1", true, null, [1]])
      expect(integerType.fits(not)).toBe(false);
  });

  it("reads decimal digits with an optional sign, ignoring surrounding spaces", () => {
    expect(value("42")).toEqual({ ok: true, value: 42 });
    expect(value(" 1")).toEqual({ ok: true, value: 1 });
    expect(value("-3\n")).toEqual({ ok: true, value: -3 });
    expect(value("+7")).toEqual({ ok: true, value: 7 });
    expect(value("007")).toEqual({ ok: true, value: 7 });
  });

  it("refuses fractions, exponents, hex, blanks and words", () => {
    for (const text of ["1.5", "1.0", "1e3", "0x10", "", " ", "NaN", "Infinity", "1 2", "one", "--1"])
      expect(value(text)).toEqual({ ok: false, reason: `expected an integer, got ${JSON.stringify(text)}` });
  });

  it("refuses integers beyond ±(2^53 − 1), which a JSON number cannot hold exactly", () => {
    expect(value("9007199254740991")).toEqual({ ok: true, value: 9007199254740991 });
    const beyond = value("9007199254740993");
    expect(beyond.ok).toBe(false);
    expect(!beyond.ok && beyond.reason).toMatch(/within ±\(2\^53 − 1\)/);
  });

  it("round-trips every safe integer through its text", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(value(String(n))).toEqual({ ok: true, value: n });
      }),
    );
  });

  it("reads only what fits", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const reading = value(text);
        if (reading.ok) expect(integerType.fits(reading.value)).toBe(true);
      }),
    );
  });
});
