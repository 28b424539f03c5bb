import { describe, expect, it } from "vitest";
import { schemaIssues } from "../../src/local/sampling/json-schema-check.js";

// The keywords a hand-written subset ignored, and enum/const compared by value (key order
// of objects does not matter), as a real host checks a structured answer.
describe("schemaIssues", () => {
  it("checks not, if/then/else, prefixItems and patternProperties", () => {
    expect(schemaIssues("x", { not: { type: "string" } })).toHaveLength(1);
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword under test
    const conditional = { if: { properties: { kind: { const: "n" } } }, then: { required: ["n"] } };
    expect(schemaIssues({ kind: "n" }, conditional)).toContainEqual({ path: "n", message: "required" });
    expect(schemaIssues({ kind: "s" }, conditional)).toEqual([]);
    const pair = { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }] };
    expect(schemaIssues(["a", 1], pair)).toEqual([]);
    expect(schemaIssues(["a", "b"], pair).map((issue) => issue.path)).toEqual(["1"]);
    const tagged = { type: "object", patternProperties: { "^x-": { type: "number" } } };
    expect(schemaIssues({ "x-a": "no" }, tagged).map((issue) => issue.path)).toEqual(["x-a"]);
  });

  it("compares enum and const by value, whatever the key order", () => {
    const schema = { enum: [{ a: 1, b: 2 }] };
    expect(schemaIssues({ b: 2, a: 1 }, schema)).toEqual([]);
    expect(schemaIssues({ a: 1, b: 3 }, schema)[0]!.message).toContain('{"a":1,"b":2}');
    expect(schemaIssues({ y: [1], x: 0 }, { const: { x: 0, y: [1] } })).toEqual([]);
  });

  it("checks formats", () => {
    expect(schemaIssues("2025-01-01T00:00:00Z", { type: "string", format: "date-time" })).toEqual([]);
    expect(schemaIssues("yesterday", { type: "string", format: "date-time" })).toHaveLength(1);
    expect(schemaIssues("not a uri", { type: "string", format: "uri" })).toHaveLength(1);
  });

  it("names a missing or extra property in the path, below nested objects and through $ref", () => {
    const schema = {
      type: "object",
      properties: { source: { $ref: "#/$defs/Source" } },
      $defs: {
        Source: {
          type: "object",
          properties: { url: { type: "string" } },
          required: ["url"],
          additionalProperties: false,
        },
      },
    };
    expect(schemaIssues({ source: { extra: 1 } }, schema)).toEqual([
      { path: "source.url", message: "required" },
      { path: "source.extra", message: "is not allowed" },
    ]);
  });

  it("takes draft-07 tuple items when the schema names draft-07", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "array",
      items: [{ type: "string" }, { type: "integer" }],
    };
    expect(schemaIssues(["a", "b"], schema).map((issue) => issue.path)).toEqual(["1"]);
  });

  it("reports a schema it cannot compile instead of throwing", () => {
    expect(schemaIssues(1, { type: "no-such-type" })[0]!.message).toMatch(/^the schema itself is invalid/);
  });
});
