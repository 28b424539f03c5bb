import { notA, type ParameterTypeRules, parseJson, read } from "./parameter-type.js";
import { stringType } from "./string.js";

/**
 * The element type of an `array` that declares neither `items` nor `items_type`: the spec
 * says such a list holds strings.
 */
export const DEFAULT_ELEMENT_TYPE = stringType;

const NOUN = "a JSON list";

/**
 * `array`: a JSON list; its element type is declared as `items: {"type": …}` (JSON
 * Schema) or `items_type` (protocol shorthand). From text: a JSON list when the text
 * starts with `[`; blank text is the empty list; any other text is one element, read by
 * the element type (`"5"` → `[5]` for a list of integers). Elements of a JSON list are
 * returned as parsed: checking them against the element type is the caller's job.
 */
export const arrayType: ParameterTypeRules<"array"> = {
  name: "array",
  noun: NOUN,
  schemaFields: ["items", "items_type"],
  schema: { type: "array", items: DEFAULT_ELEMENT_TYPE.schema },
  reflectedFrom: "Array",
  fits: (value) => Array.isArray(value),
  fromText(text, element = DEFAULT_ELEMENT_TYPE) {
    const trimmed = text.trim();
    if (trimmed === "") return read([]);
    if (trimmed.startsWith("[")) {
      const value = parseJson(trimmed);
      return Array.isArray(value) ? read(value) : notA(NOUN, text);
    }
    const single = element.fromText(text);
    return single.ok ? read([single.value]) : notA(`${NOUN} or ${element.noun}`, text);
  },
};
