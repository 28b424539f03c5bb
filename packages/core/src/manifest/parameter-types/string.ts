import { type ParameterTypeRules, read } from "./parameter-type.js";

/** `string`: any text, read as typed (surrounding spaces kept, the empty text allowed). */
export const stringType: ParameterTypeRules<"string"> = {
  name: "string",
  noun: "a string",
  schemaFields: [],
  schema: { type: "string" },
  reflectedFrom: "String",
  typeScriptFlags: "StringLike",
  fits: (value) => typeof value === "string",
  fromText: (text) => read(text),
};
