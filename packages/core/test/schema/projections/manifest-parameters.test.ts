import { describe, expect, it } from "vitest";
import { manifestParameters } from "../../../src/schema/projections/manifest-parameters.js";

describe("manifestParameters", () => {
  it("one parameter per property, in the spec's field order, required always given", () => {
    expect(
      manifestParameters({
        type: "object",
        properties: {
          days: { type: "integer", minimum: 1, maximum: 7, default: 3, description: "Days." },
          city: { type: "string", maxLength: 100 },
          tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
        },
        required: ["city", "tags"],
        additionalProperties: false,
      }),
    ).toEqual([
      {
        name: "days",
        type: "integer",
        description: "Days.",
        required: false,
        default: 3,
        minimum: 1,
        maximum: 7,
      },
      { name: "city", type: "string", required: true, maxLength: 100 },
      { name: "tags", type: "array", items: { type: "string", enum: ["a", "b"] }, required: true },
    ]);
  });

  it("nested objects as properties with required lists; recursion as an object; numeric enums by name", () => {
    const [order] = manifestParameters({
      type: "object",
      properties: {
        order: {
          type: "object",
          properties: {
            when: { type: "string", format: "date-time" },
            priority: { type: "integer", enum: [0, 1], enumNames: ["Low", "High"] },
            parent: { $ref: "#/$defs/Order" },
          },
          required: ["when"],
        },
      },
      required: ["order"],
    });
    expect(order).toEqual({
      name: "order",
      type: "object",
      required: true,
      properties: {
        when: { type: "string", description: "ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z" },
        priority: { type: "string", description: "Low = 0, High = 1; optional", enum: ["Low", "High"] },
        parent: { type: "object", description: "optional" },
      },
    });
    expect(JSON.stringify(Object.keys(order!))).toBe('["name","type","required","properties"]');
  });

  it("a class written once in $defs is shown where it is referred to, expanded once along each path", () => {
    const node = {
      type: "object",
      properties: {
        name: { type: "string" },
        children: { type: "array", items: { $ref: "#/$defs/Node" } },
      },
      required: ["name"],
      additionalProperties: false,
    } as const;
    const parameters = manifestParameters({
      type: "object",
      properties: {
        tree: { $ref: "#/$defs/Node", description: "The tree." },
        forest: { type: "array", items: { $ref: "#/$defs/Node" } },
      },
      required: ["tree"],
      $defs: { Node: node },
    });
    const shown = {
      name: { type: "string" },
      children: { type: "array", description: "optional", items: { type: "object" } },
    };
    expect(parameters).toEqual([
      { name: "tree", type: "object", description: "The tree.", required: true, properties: shown },
      {
        name: "forest",
        type: "array",
        items: { type: "object", properties: shown, required: ["name"] },
        required: false,
      },
    ]);
  });

  it("an input that is a recurring class itself shows its recursion as an object", () => {
    class Node {}
    const node = {
      type: "object",
      properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } },
      additionalProperties: false,
      target: Node,
    } as const;
    const [children] = manifestParameters({ ...node, $defs: { Node: node } });
    expect(children).toEqual({ name: "children", type: "array", items: { type: "object" }, required: false });
  });

  it("what the dialect has no field for, a nested property's default included, is said in the description", () => {
    const [parameter] = manifestParameters({
      type: "object",
      properties: {
        items: {
          type: "array",
          minItems: 1,
          items: {
            type: "object",
            properties: {
              price: { type: "number", exclusiveMinimum: 0 },
              quantity: { type: "integer", default: 1 },
              code: { type: "string", pattern: "^[A-Z]+$" },
            },
            required: ["price", "code"],
          },
        },
      },
      required: ["items"],
    });
    expect(parameter).toEqual({
      name: "items",
      type: "array",
      items: {
        type: "object",
        properties: {
          price: { type: "number", description: "above 0" },
          quantity: { type: "integer", description: "default 1; optional" },
          code: { type: "string", description: "matching ^[A-Z]+$" },
        },
        required: ["price", "code"],
      },
      description: "at least 1 item",
      required: true,
    });
  });

  it("a const is shown as an enum of its one value", () => {
    const [parameter] = manifestParameters({
      type: "object",
      properties: { kind: { type: "string", const: "expense" } },
      required: ["kind"],
    });
    expect(parameter).toEqual({ name: "kind", type: "string", required: true, enum: ["expense"] });
  });
});
