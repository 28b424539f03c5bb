import type { EnumSource, EnumValue } from "../options/argument-options.js";

/**
 * The values of an `enum` option: an array as given, or a TypeScript enum object's values
 * with the reverse mappings of numeric members dropped (`enum E { A }` compiles to
 * `{ A: 0, "0": "A" }`; the values are `[0]`). Returns a reason string when unusable.
 */
export function normalizeEnum(source: EnumSource): readonly EnumValue[] | string {
  let values: unknown[];
  if (Array.isArray(source)) values = [...source];
  else if (typeof source === "object" && source !== null) {
    values = Object.entries(source)
      .filter(([key]) => !/^\d+$/.test(key))
      .map(([, value]) => value);
  } else return "enum must be an array of values or a TypeScript enum object";
  if (values.length === 0) return "enum lists no values";
  for (const value of values) {
    if (
      typeof value !== "string" &&
      typeof value !== "boolean" &&
      !(typeof value === "number" && Number.isFinite(value))
    ) {
      return `enum value ${String(value)} is not a string, number or boolean`;
    }
  }
  if (new Set(values).size !== values.length) return "enum lists a value twice";
  return values as EnumValue[];
}
