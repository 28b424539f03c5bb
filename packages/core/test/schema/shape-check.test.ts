import type { Schema } from "@executa/core";
import { compileShape, shapeCheckOf } from "@executa/core/internal";
import { describe, expect, it } from "vitest";

const page = {
  type: "object",
  properties: {
    items: {
      type: "array",
      items: { type: "object", properties: { key: { type: "string", minLength: 1 } }, required: ["key"] },
    },
    next: { anyOf: [{ type: "string" }, { type: "null" }] },
  },
} as const satisfies Schema;

describe("compileShape", () => {
  it("names the first place a value does not fit, with its path", () => {
    const check = compileShape(page);
    expect(check({ items: [{ key: "a" }], next: null })).toBeUndefined();
    expect(check({ items: [{ key: "a" }, { key: 5 }] })).toEqual({
      path: "items[1].key",
      problem: "must be a string, got number",
    });
    expect(check({ items: [{}] })).toEqual({ path: "items[0].key", problem: "is required" });
    expect(check({ items: [{ key: "" }] })).toEqual({ path: "items[0].key", problem: "must not be empty" });
    expect(check({ next: 3 })).toEqual({ path: "next", problem: "must be a string or null, got number" });
    expect(check([])).toEqual({ path: "", problem: "must be an object, got array" });
  });

  it("checks bounds, enums, integers, closed objects and typed maps", () => {
    const check = compileShape({
      type: "object",
      properties: {
        n: { type: "integer", minimum: 1 },
        t: { type: "number", exclusiveMinimum: 0 },
        kind: { type: "string", enum: ["kv", "file"] },
        headers: { type: "object", additionalProperties: { type: "string" } },
      },
      additionalProperties: false,
    });
    expect(check({ n: 1.5 })?.problem).toBe("must be an integer, got number");
    expect(check({ n: 0 })?.problem).toBe("must be ≥ 1, got 0");
    expect(check({ t: 0 })?.problem).toBe("must be > 0, got 0");
    expect(check({ kind: "dir" })?.problem).toBe('must be "kv" or "file", got "dir"');
    expect(check({ headers: { a: 1 } })).toEqual({
      path: "headers.a",
      problem: "must be a string, got number",
    });
    expect(check({ other: 1 })).toEqual({ path: "other", problem: "is not a known field" });
  });

  it("refuses a repeated element where the list says uniqueItems, naming both indices", () => {
    const check = compileShape({
      type: "object",
      properties: { tags: { type: "array", items: { type: "string" }, uniqueItems: true } },
    });
    expect(check({ tags: ["a", "b"] })).toBeUndefined();
    expect(check({ tags: ["a", "b", "a"] })).toEqual({
      path: "tags",
      problem: "must have unique elements: element 2 repeats element 0",
    });
  });

  it("picks the union member a discriminating const names", () => {
    const check = compileShape({
      anyOf: [
        {
          type: "object",
          properties: { mode: { type: "string", const: "a" }, x: { type: "string" } },
          required: ["mode", "x"],
        },
        {
          type: "object",
          properties: { mode: { type: "string", const: "b" }, y: { type: "integer" } },
          required: ["mode", "y"],
        },
      ],
    });
    expect(check({ mode: "b", y: 2 })).toBeUndefined();
    expect(check({ mode: "b", y: "2" })).toEqual({ path: "y", problem: "must be an integer, got string" });
    expect(check({ mode: "a" })).toEqual({ path: "x", problem: "is required" });
    expect(check({ mode: "c" })).toEqual({ path: "mode", problem: 'must be "a" or "b", got "c"' });
  });

  it("follows $ref into $defs, at every depth", () => {
    const check = compileShape({
      type: "object",
      properties: { root: { $ref: "#/$defs/Node" } },
      $defs: {
        Node: {
          type: "object",
          properties: {
            name: { type: "string" },
            children: { type: "array", items: { $ref: "#/$defs/Node" } },
          },
          required: ["name"],
        },
      },
    });
    expect(
      check({ root: { name: "a", children: [{ name: "b", children: [{ name: "c" }] }] } }),
    ).toBeUndefined();
    expect(check({ root: { name: "a", children: [{ name: "b", children: [{}] }] } })).toEqual({
      path: "root.children[0].children[0].name",
      problem: "is required",
    });
  });

  it("compiles a schema once", () => {
    expect(shapeCheckOf(page)).toBe(shapeCheckOf(page));
  });
});
