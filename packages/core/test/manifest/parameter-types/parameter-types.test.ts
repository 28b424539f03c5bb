import { describe, expect, it } from "vitest";
import {
  isParameterType,
  PARAMETER_TYPE_NAMES,
  PARAMETER_TYPES,
  parameterType,
} from "../../../src/manifest/parameter-types/index.js";

describe("the parameter-type table", () => {
  it("holds the spec's six types, each under its own name", () => {
    expect(PARAMETER_TYPE_NAMES).toEqual(
      expect.arrayContaining(["string", "integer", "number", "boolean", "array", "object"]),
    );
    expect(Object.keys(PARAMETER_TYPES)).toEqual(PARAMETER_TYPE_NAMES);
    for (const name of PARAMETER_TYPE_NAMES) expect(PARAMETER_TYPES[name].name).toBe(name);
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
