import { describe, expect, it } from "vitest";
import { jsonSchemaOf } from "../../../src/schema/projections/json-schema.js";
import type { Schema } from "../../../src/schema/schema.js";

class Node {
  name = "";
}

describe("jsonSchemaOf", () => {
  it("keeps every JSON Schema keyword and leaves the class target out", () => {
    const schema: Schema = {
      type: "object",
      properties: {
        at: { type: "string", format: "date-time", description: "When." },
        code: { type: "string", minLength: 3, maxLength: 8, pattern: "^[A-Z]+$" },
        share: { type: "number", exclusiveMinimum: 0, maximum: 1 },
        parent: { $ref: "#/$defs/Node" },
        tags: { type: "object", additionalProperties: { type: "integer" } },
        codes: { type: "array", items: { type: "string" }, minItems: 1, uniqueItems: true },
      },
      required: ["at"],
      additionalProperties: false,
      target: Node,
      $defs: { Node: { type: "object", properties: { name: { type: "string" } }, target: Node } },
    };
    expect(jsonSchemaOf(schema)).toEqual({
      type: "object",
      properties: {
        at: { type: "string", format: "date-time", description: "When." },
        code: { type: "string", minLength: 3, maxLength: 8, pattern: "^[A-Z]+$" },
        share: { type: "number", exclusiveMinimum: 0, maximum: 1 },
        parent: { $ref: "#/$defs/Node" },
        tags: { type: "object", additionalProperties: { type: "integer" } },
        codes: { type: "array", items: { type: "string" }, minItems: 1, uniqueItems: true },
      },
      required: ["at"],
      additionalProperties: false,
      $defs: { Node: { type: "object", properties: { name: { type: "string" } } } },
    });
  });

  it("shows a numeric enum by its names, its default as a name, the numbers in the description", () => {
    expect(
      jsonSchemaOf({
        type: "integer",
        enum: [0, 1, 2],
        enumNames: ["Low", "Medium", "High"],
        default: 2,
        description: "How urgent.",
      }),
    ).toEqual({
      type: "string",
      enum: ["Low", "Medium", "High"],
      default: "High",
      description: "How urgent. (Low = 0, Medium = 1, High = 2)",
    });
  });

  it("writes a union with null of one type as a type list, other unions as anyOf", () => {
    expect(jsonSchemaOf({ anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "null" }] })).toEqual({
      type: ["string", "null"],
      enum: ["a", "b", null],
    });
    expect(
      jsonSchemaOf({ anyOf: [{ type: "string" }, { type: "integer", minimum: 0 }], description: "Id." }),
    ).toEqual({ description: "Id.", anyOf: [{ type: "string" }, { type: "integer", minimum: 0 }] });
  });

  it("rules no keyword expresses are said in the description, never shown as a member (a union's too)", () => {
    expect(
      jsonSchemaOf({
        type: "string",
        pattern: "^x",
        format: "email",
        rules: ["a URL"],
        description: "Link.",
      }),
    ).toEqual({ type: "string", pattern: "^x", format: "email", description: "Link. (a URL)" });
    expect(
      jsonSchemaOf({ anyOf: [{ type: "string" }, { type: "integer" }], rules: ["checked by @IsAlpha()"] }),
    ).toEqual({ anyOf: [{ type: "string" }, { type: "integer" }], description: "checked by @IsAlpha()" });
  });
});
