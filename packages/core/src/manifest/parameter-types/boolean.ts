import { notA, type ParameterTypeRules, read } from "./parameter-type.js";

const NOUN = "true or false";

/**
 * `boolean`: `true` or `false`. From text: exactly the JSON words `true` and `false`, in
 * any letter case, surrounding spaces ignored. `yes`/`no`, `on`/`off` and `1`/`0` are
 * refused: a caller sending them has misread the schema (or meant a number or a word),
 * and being told beats a guess.
 */
export const booleanType: ParameterTypeRules<"boolean"> = {
  name: "boolean",
  noun: NOUN,
  schemaFields: [],
  schema: { type: "boolean" },
  reflectedFrom: "Boolean",
  typeScriptFlags: "BooleanLike",
  fits: (value) => typeof value === "boolean",
  fromText(text) {
    const word = text.trim().toLowerCase();
    if (word === "true") return read(true);
    if (word === "false") return read(false);
    return notA(NOUN, text);
  },
};
