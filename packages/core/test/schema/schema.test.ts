import { describe, expect, it } from "vitest";
import type { Schema } from "../../src/schema/schema.js";

class LineItem {
  unitPrice = 0;
}

describe("the schema value", () => {
  it("is plain JSON Schema but for the class target, which no JSON text carries", () => {
    const order: Schema = {
      type: "object",
      properties: {
        items: {
          type: "array",
          items: {
            type: "object",
            properties: { unitPrice: { type: "number", minimum: 0 } },
            required: ["unitPrice"],
            additionalProperties: false,
            target: LineItem,
          },
        },
        receipt: { anyOf: [{ type: "string", format: "uri" }, { type: "null" }] },
        priority: { type: "integer", enum: [0, 1, 2], enumNames: ["Low", "Medium", "High"] },
        parent: { $ref: "#/$defs/Category" },
      },
      required: ["items"],
      $defs: { Category: { type: "object", properties: { name: { type: "string", maxLength: 100 } } } },
    };
    expect(JSON.parse(JSON.stringify(order)).properties.items.items).toEqual({
      type: "object",
      properties: { unitPrice: { type: "number", minimum: 0 } },
      required: ["unitPrice"],
      additionalProperties: false,
    });
  });

  it("refuses keywords outside the subset at compile time", () => {
    // @ts-expect-error a string has no minimum
    const wrong: Schema = { type: "string", minimum: 1 };
    // @ts-expect-error a reference names a $defs entry
    const badRef: Schema = { $ref: "other.json" };
    expect([wrong, badRef]).toHaveLength(2);
  });
});
