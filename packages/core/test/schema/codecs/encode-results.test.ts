import { registerCodec } from "@executa/core";
import { describe, expect, it } from "vitest";
import { encodeResult } from "../../../src/schema/codecs/encode-results.js";

describe("encodeResult", () => {
  it("returns the very value while no codec is registered", () => {
    const result = { at: new Date(0), list: [1n] };
    expect(encodeResult(result)).toBe(result);
  });

  it("encodes a registered codec's values through arrays and plain objects, copying only what changes", () => {
    const remove = registerCodec<bigint>({
      name: "bigint",
      typeName: "bigint",
      description: "integer in decimal digits",
      decode: (text) => BigInt(text),
      encode: (value) => value.toString(),
      is: (value): value is bigint => typeof value === "bigint",
    });
    try {
      const untouched = { name: "a", tags: ["x"] };
      const result = { total: 10n ** 20n, rows: [{ id: 1n, label: "one" }], untouched };
      const sent = encodeResult(result) as typeof result;
      expect(sent).toEqual({ total: "100000000000000000000", rows: [{ id: "1", label: "one" }], untouched });
      expect(sent.untouched).toBe(untouched);
      expect(result.total).toBe(10n ** 20n);
      expect(encodeResult(5n)).toBe("5");
    } finally {
      remove();
    }
  });
});
