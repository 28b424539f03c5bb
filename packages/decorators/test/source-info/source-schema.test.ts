import type { Schema } from "@executa/core";
import { describe, expect, it } from "vitest";
import { sourceTarget, sourceType, sourceValue } from "../../src/model/source-schema.js";

class LineItem {
  unitPrice = 0;
}

/** A recorded schema whose `target` is a getter, as the emitted code writes it. */
function withTargetGetter(schema: Schema, read: () => Function): Schema {
  return Object.defineProperty({ ...schema }, "target", { get: read, enumerable: true });
}

describe("a recorded source schema as an argument's value", () => {
  it("is its value type when the type is a union with null", () => {
    const recorded: Schema = { anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }] };
    expect(sourceType(recorded)).toBe("integer");
    expect(sourceValue(recorded)).toEqual({ type: "integer", minimum: 1 });
  });

  it("is what reflection says, an object, for a union of different types", () => {
    const recorded: Schema = { anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }] };
    expect(sourceType(recorded)).toBe("object");
    expect(sourceValue(recorded)).toEqual({ type: "object" });
  });

  it("lists an object's properties with their descriptions and defaults, its required ones and no others", () => {
    const recorded: Schema = {
      type: "object",
      properties: {
        city: { type: "string", description: "The city." },
        days: { type: "integer", default: 3 },
        tags: { anyOf: [{ type: "array" }, { type: "null" }] },
        // A key binding strips.
        ["__proto__"]: { type: "string" },
      },
      required: ["city"],
    };
    expect(sourceValue(recorded)).toEqual({
      type: "object",
      properties: {
        city: { type: "string", description: "The city." },
        days: { type: "integer", default: 3 },
        // Elements the source does not name are strings, as an array argument's.
        tags: { type: "array", items: { type: "string" } },
      },
      required: ["city"],
      additionalProperties: false,
    });
  });

  it("leaves the class of a value out (the DTO reading names it) and keeps a numeric enum's names", () => {
    const recorded = withTargetGetter(
      {
        type: "object",
        properties: { level: { type: "integer", enum: [0, 1], enumNames: ["Low", "High"] } },
      },
      () => LineItem,
    );
    expect(sourceValue(recorded)).toEqual({
      type: "object",
      properties: { level: { type: "integer", enum: [0, 1], enumNames: ["Low", "High"] } },
      additionalProperties: false,
    });
  });
});

describe("the class the source names for a field's values", () => {
  it("is read from the target getter when asked, not before", () => {
    let defined: Function | undefined;
    const recorded = withTargetGetter({ type: "object" }, () => {
      if (!defined) throw new ReferenceError("LineItem is not defined yet");
      return defined;
    });
    defined = LineItem;
    expect(sourceTarget(recorded, false)).toBe(LineItem);
  });

  it("is found beside null and in an array's (nullable) elements", () => {
    const item = withTargetGetter({ type: "object" }, () => LineItem);
    expect(sourceTarget({ anyOf: [item, { type: "null" }] }, false)).toBe(LineItem);
    expect(sourceTarget({ type: "array", items: { anyOf: [item, { type: "null" }] } }, true)).toBe(LineItem);
    expect(sourceTarget({ type: "array", items: item }, false)).toBeUndefined();
    expect(sourceTarget({ type: "object" }, false)).toBeUndefined();
  });
});
