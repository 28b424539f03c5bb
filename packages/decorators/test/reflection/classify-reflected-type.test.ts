import { PARAMETER_TYPE_NAMES, PARAMETER_TYPES } from "@executa/core";
import { describe, expect, it } from "vitest";
import { classifyReflectedType } from "../../src/reflection/reflect-types.js";

/** The parameter types core's table reflects from a constructor, with the constructor's name. */
const REFLECTED = PARAMETER_TYPE_NAMES.flatMap((type) => {
  const constructorName = PARAMETER_TYPES[type].reflectedFrom;
  return constructorName === undefined ? [] : [{ type, constructorName }];
});

describe("classifyReflectedType", () => {
  it("reflects string, number, boolean and array, the types whose rules name a constructor", () => {
    expect(REFLECTED.map(({ type }) => type)).toEqual(["string", "number", "boolean", "array"]);
  });

  it.each(REFLECTED)("classifies $constructorName as $type, the constructor its rules name", (entry) => {
    const reflected = Reflect.get(globalThis, entry.constructorName);
    expect(typeof reflected).toBe("function");
    expect(classifyReflectedType(reflected)).toEqual({ kind: "primitive", type: entry.type });
  });

  it("keeps Date a date-time string, other built-ins unknown and user classes classes", () => {
    class Place {}
    expect(classifyReflectedType(Date)).toEqual({ kind: "primitive", type: "string", format: "date-time" });
    expect(classifyReflectedType(Object)).toEqual({ kind: "unknown", label: "Object" });
    expect(classifyReflectedType(Promise)).toEqual({ kind: "unknown", label: "Promise" });
    expect(classifyReflectedType(undefined)).toEqual({ kind: "unknown", label: "undefined" });
    expect(classifyReflectedType(Place)).toEqual({ kind: "class", class: Place });
  });
});
