import { describe, expect, it } from "vitest";
import { responseFormatSchema } from "../../../src/schema/projections/response-format.js";
import type { ObjectTypeSchema } from "../../../src/schema/schema.js";

const summary: ObjectTypeSchema = {
  type: "object",
  properties: {
    title: { type: "string", maxLength: 80, description: "Title." },
    score: { type: "integer", enum: [1, 2], enumNames: ["Low", "High"], default: 1 },
    parent: { $ref: "#/$defs/Summary" },
  },
  required: ["title"],
  additionalProperties: false,
  $defs: { Summary: { type: "object", properties: { title: { type: "string" } }, required: ["title"] } },
};

describe("responseFormatSchema", () => {
  it("strict: every property required, optional ones nullable, numbers for enums, defaults and length bounds in words", () => {
    expect(responseFormatSchema(summary, true)).toEqual({
      type: "object",
      properties: {
        title: { type: "string", description: "Title. (at most 80 characters)" },
        score: { type: ["integer", "null"], enum: [1, 2, null], description: "default 1" },
        parent: { anyOf: [{ $ref: "#/$defs/Summary" }, { type: "null" }] },
      },
      required: ["title", "score", "parent"],
      additionalProperties: false,
      $defs: {
        Summary: {
          type: "object",
          properties: { title: { type: "string" } },
          required: ["title"],
          additionalProperties: false,
        },
      },
    });
  });

  it("not strict: only required properties listed, defaults kept", () => {
    const schema = responseFormatSchema(summary, false);
    expect(schema.required).toEqual(["title"]);
    expect((schema.properties as Record<string, unknown>).score).toEqual({
      type: "integer",
      enum: [1, 2],
      default: 1,
    });
  });

  const rules: ObjectTypeSchema = {
    type: "object",
    properties: {
      code: { type: "string", pattern: "^[A-Z]{3}$", minLength: 3 },
      price: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 100 },
      tags: {
        type: "array",
        items: { type: "string", format: "email" },
        minItems: 1,
        maxItems: 5,
        uniqueItems: true,
      },
      link: { type: "string", format: "uri", description: "Where." },
      extras: { type: "array" },
      note: { type: "string", rules: ["not empty"] },
      answer: { const: 42, type: "integer" },
    },
    required: ["code", "price", "tags", "link", "extras", "note", "answer"],
  };

  it("strict: keeps the keywords strict mode accepts; formats and uniqueItems it refuses and rules go to the description", () => {
    const properties = responseFormatSchema(rules, true).properties as Record<string, unknown>;
    expect(properties).toEqual({
      code: { type: "string", pattern: "^[A-Z]{3}$", description: "at least 3 characters" },
      price: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 100 },
      tags: {
        type: "array",
        minItems: 1,
        maxItems: 5,
        items: { type: "string", format: "email" },
        description: "unique elements",
      },
      link: { type: "string", description: "Where. (absolute URL, e.g. https://example.com/a)" },
      extras: {
        type: "array",
        items: { anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }, { type: "null" }] },
      },
      note: { type: "string", description: "not empty" },
      answer: { type: "integer", const: 42 },
    });
  });

  it("not strict: every keyword, elements of any value as any value", () => {
    const properties = responseFormatSchema(rules, false).properties as Record<string, unknown>;
    expect(properties.code).toEqual({ type: "string", pattern: "^[A-Z]{3}$", minLength: 3 });
    expect(properties.link).toEqual({ type: "string", format: "uri", description: "Where." });
    expect(properties.extras).toEqual({ type: "array", items: {} });
    expect(properties.tags).toEqual({
      type: "array",
      minItems: 1,
      maxItems: 5,
      uniqueItems: true,
      items: { type: "string", format: "email" },
    });
    expect(properties.note).toEqual({ type: "string", description: "not empty" });
  });
});
