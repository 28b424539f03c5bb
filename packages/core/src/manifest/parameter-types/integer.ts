import { notA, type ParameterTypeRules, read } from "./parameter-type.js";

/** Decimal digits with an optional sign: no fraction, no exponent (`"1e3"` is refused), no hex. */
const INTEGER_TEXT = /^[+-]?\d+$/;

const NOUN = "an integer";

/**
 * `integer`: a JSON number without a fraction. From text: decimal digits with an optional
 * sign, surrounding spaces ignored, within ±(2^53 − 1) so the value is exact.
 */
export const integerType: ParameterTypeRules<"integer"> = {
  name: "integer",
  noun: NOUN,
  schemaFields: [],
  schema: { type: "integer" },
  fits: (value) => Number.isInteger(value),
  fromText(text) {
    const trimmed = text.trim();
    if (!INTEGER_TEXT.test(trimmed)) return notA(NOUN, text);
    const value = Number(trimmed);
    return Number.isSafeInteger(value) ? read(value) : notA("an integer within ±(2^53 − 1)", text);
  },
};
