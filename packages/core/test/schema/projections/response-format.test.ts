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
  it("strict: every property required, optional ones nullable, no defaults, numbers for enums", () => {
    expect(responseFormatSchema(summary, true)).toEqual({
      type: "object",
      properties: {
        title: { type: "string", maxLength: 80, description: "Title." },
        score: { type: ["integer", "null"], enum: [1, 2, null] },
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
});
