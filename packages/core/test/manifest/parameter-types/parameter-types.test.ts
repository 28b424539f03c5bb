import { describe, expect, expectTypeOf, it } from "vitest";
import {
  isParameterType,
  PARAMETER_TYPE_NAMES,
  PARAMETER_TYPES,
  type ParameterType,
  parameterType,
} from "../../../src/manifest/parameter-types/index.js";

/** Each type's value of one optional field, for the types that have it. */
function byType(field: "reflectedFrom" | "typeScriptFlags"): Record<string, string> {
  return Object.fromEntries(
    Object.values(PARAMETER_TYPES).flatMap((rules) => {
      const value = rules[field];
      return value === undefined ? [] : [[rules.name, value]];
    }),
  );
}

describe("the parameter-type table", () => {
  it("holds the spec's six types in the spec's order, each under its own name", () => {
    expect(PARAMETER_TYPE_NAMES).toEqual(["string", "integer", "number", "boolean", "array", "object"]);
    expect(Object.keys(PARAMETER_TYPES)).toEqual(PARAMETER_TYPE_NAMES);
    for (const name of PARAMETER_TYPE_NAMES) expect(PARAMETER_TYPES[name].name).toBe(name);
  });

  it("derives ParameterType from the registered modules", () => {
    expectTypeOf<ParameterType>().toEqualTypeOf<
      "string" | "integer" | "number" | "boolean" | "array" | "object"
    >();
    expectTypeOf(PARAMETER_TYPE_NAMES).toEqualTypeOf<readonly ParameterType[]>();
  });

  it("names the global constructor reflection reports for string, number, boolean and array", () => {
    expect(byType("reflectedFrom")).toEqual({
      string: "String",
      number: "Number",
      boolean: "Boolean",
      array: "Array",
    });
    for (const name of Object.values(byType("reflectedFrom")))
      expect(typeof Reflect.get(globalThis, name)).toBe("function");
  });

  it("names the TypeScript type flags of string, number and boolean", () => {
    expect(byType("typeScriptFlags")).toEqual({
      string: "StringLike",
      number: "NumberLike",
      boolean: "BooleanLike",
    });
  });

  it("looks types up by name, and nothing else", () => {
    expect(parameterType("integer")).toBe(PARAMETER_TYPES.integer);
    for (const not of ["str", "toString", "__proto__", "", 1, undefined]) {
      expect(parameterType(not)).toBeUndefined();
      expect(isParameterType(not)).toBe(false);
    }
  });

  it("gives each type a noun for messages", () => {
    for (const rules of Object.values(PARAMETER_TYPES)) expect(rules.noun).not.toBe("");
  });
});
