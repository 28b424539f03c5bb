import { describe, expect, it } from "vitest";
import { parameterSchema, toolEntry, toolInputSchema } from "../../src/mcp/input-schema.js";

describe("inputSchema from the manifest", () => {
  it("maps every parameter type with its description, default, enum and bounds", () => {
    expect(
      parameterSchema({
        name: "n",
        type: "integer",
        description: "How many",
        default: 3,
        minimum: 1,
        maximum: 9,
      }),
    ).toEqual({ type: "integer", description: "How many", default: 3, minimum: 1, maximum: 9 });
    expect(
      parameterSchema({ name: "s", type: "string", enum: ["a", "b"], minLength: 1, maxLength: 5 }),
    ).toEqual({
      type: "string",
      enum: ["a", "b"],
      minLength: 1,
      maxLength: 5,
    });
    expect(parameterSchema({ name: "b", type: "boolean" })).toEqual({ type: "boolean" });
    expect(parameterSchema({ name: "x", type: "number" })).toEqual({ type: "number" });
  });

  it("maps array items (JSON Schema style or items_type) and object properties", () => {
    expect(parameterSchema({ name: "a", type: "array", items_type: "integer" })).toEqual({
      type: "array",
      items: { type: "integer" },
    });
    expect(
      parameterSchema({
        name: "rows",
        type: "array",
        items: {
          type: "object",
          properties: {
            id: { type: "integer", description: "Row id" },
            tags: { type: "array", items: { type: "string", enum: ["x"] } },
          },
          required: ["id"],
        },
      }),
    ).toEqual({
      type: "array",
      items: {
        type: "object",
        properties: {
          id: { type: "integer", description: "Row id" },
          tags: { type: "array", items: { type: "string", enum: ["x"] } },
        },
        required: ["id"],
      },
    });
    expect(
      parameterSchema({
        name: "o",
        type: "object",
        properties: { city: { type: "string", description: "City" } },
      }),
    ).toEqual({ type: "object", properties: { city: { type: "string", description: "City" } } });
  });

  it("requires the parameters not marked required: false (the wire's default is true)", () => {
    const schema = toolInputSchema({
      name: "t",
      description: "d",
      parameters: [
        { name: "a", type: "string" },
        { name: "b", type: "string", required: true },
        { name: "c", type: "string", required: false },
      ],
    });
    expect(schema.required).toEqual(["a", "b"]);
    expect(toolInputSchema({ name: "t", description: "d" })).toEqual({ type: "object", properties: {} });
  });

  it("gives a title from the tool's display_name only when the revision has titles", () => {
    const tool = { name: "t", description: "d", display_name: "Tee" };
    expect(toolEntry(tool, true).title).toBe("Tee");
    expect(toolEntry(tool, false)).not.toHaveProperty("title");
  });
});
