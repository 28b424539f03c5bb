import { notA, type ParameterTypeRules, read } from "./parameter-type.js";

/** Decimal notation with an optional sign and exponent: `5`, `-2.5`, `.5`, `1e3`. Not `NaN`, `Infinity`, hex. */
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const NOUN = "a number";

/**
 * `number`: a finite JSON number. From text: decimal notation (exponent allowed),
 * surrounding spaces ignored; `NaN`, `Infinity` and values that overflow to it are refused.
 */
export const numberType: ParameterTypeRules<"number"> = {
  name: "number",
  noun: NOUN,
  schemaFields: [],
  schema: { type: "number" },
  reflectedFrom: "Number",
  typeScriptFlags: "NumberLike",
  fits: (value) => typeof value === "number" && Number.isFinite(value),
  fromText(text) {
    const trimmed = text.trim();
    if (!NUMBER_TEXT.test(trimmed)) return notA(NOUN, text);
    const value = Number(trimmed);
    return Number.isFinite(value) ? read(value) : notA("a finite number", text);
  },
};
