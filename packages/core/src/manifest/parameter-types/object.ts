import { notA, type ParameterTypeRules, parseJson, read } from "./parameter-type.js";

/** Whether a value is a JSON object: not null, not a list, not a class instance. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const NOUN = "a JSON object";

/** `object`: a JSON object. From text: a JSON object (`{"a": 1}`). */
export const objectType: ParameterTypeRules<"object"> = {
  name: "object",
  noun: NOUN,
  schemaFields: [],
  schema: { type: "object" },
  fits: isJsonObject,
  fromText(text) {
    const value = parseJson(text);
    return isJsonObject(value) ? read(value) : notA(NOUN, text);
  },
};
