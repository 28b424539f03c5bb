// A Standard Schema value read into the one schema value through its Standard JSON Schema:
// what zod 4 and valibot write is carried or said in the subset's own terms, and what the
// subset cannot carry is refused with a code and a fix, never dropped.
import {
  isStandardSchema,
  type Schema,
  SchemaConversionError,
  type SchemaConversionErrorCode,
  type StandardSchemaV1,
  schemaOfStandard,
} from "@executa/core";
import { shapeCheckOf } from "@executa/core/internal";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { describe, expect, test } from "vitest";
import { z } from "zod";

function refusal(run: () => unknown): SchemaConversionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaConversionError);
    return error as SchemaConversionError;
  }
  throw new Error("expected a SchemaConversionError");
}

/** A hand-written Standard Schema whose JSON Schema is `json` (what some other library might write). */
function writing(json: Record<string, unknown>): StandardSchemaV1 {
  return {
    "~standard": {
      version: 1,
      vendor: "handmade",
      validate: (value) => ({ value }),
      jsonSchema: { input: () => json, output: () => json },
    } as StandardSchemaV1.Props,
  };
}

interface CategoryNode {
  name: string;
  children?: CategoryNode[];
}

describe("zod 4", () => {
  test("an object: types, bounds, formats, enums, literals, defaults and required", () => {
    const schema = schemaOfStandard(
      z.strictObject({
        city: z.string().min(1).max(80).describe("City"),
        days: z.int().min(1).max(7).default(3),
        unit: z.enum(["c", "f"]),
        mode: z.literal("daily"),
        at: z.url(),
        ratio: z.number().gt(0).lt(1),
        tags: z.array(z.string()).min(1).max(3),
        flags: z.record(z.string(), z.boolean()),
      }),
    );
    expect(schema).toEqual({
      type: "object",
      properties: {
        city: { type: "string", minLength: 1, maxLength: 80, description: "City" },
        days: { type: "integer", minimum: 1, maximum: 7, default: 3 },
        unit: { type: "string", enum: ["c", "f"] },
        mode: { type: "string", const: "daily" },
        at: { type: "string", format: "uri" },
        ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
        tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 },
        flags: { type: "object", additionalProperties: { type: "boolean" } },
      },
      required: ["city", "unit", "mode", "at", "ratio", "tags", "flags"],
      additionalProperties: false,
    });
  });

  test("uniqueItems (a zod array's metadata) is carried; false is its absence", () => {
    const schema = schemaOfStandard(
      z.object({
        tags: z.array(z.string()).meta({ uniqueItems: true }),
        notes: z.array(z.string()).meta({ uniqueItems: false }),
      }),
    );
    expect(schema.properties?.tags).toEqual({ type: "array", items: { type: "string" }, uniqueItems: true });
    expect(schema.properties?.notes).toEqual({ type: "array", items: { type: "string" } });
  });

  test("nullability written as a type list becomes anyOf with null, bounds kept on their type", () => {
    const schema = schemaOfStandard(z.object({ n: z.number().min(2).nullable() }));
    expect(schema.properties?.n).toEqual({ anyOf: [{ type: "number", minimum: 2 }, { type: "null" }] });
  });

  test("a union stays anyOf; a nested object keeps its own required fields", () => {
    const schema = schemaOfStandard(
      z.object({
        shape: z.union([
          z.object({ kind: z.literal("circle"), r: z.number() }),
          z.object({ kind: z.literal("square"), side: z.number() }),
        ]),
      }),
    );
    expect(schema.properties?.shape).toEqual({
      anyOf: [
        {
          type: "object",
          properties: { kind: { type: "string", const: "circle" }, r: { type: "number" } },
          required: ["kind", "r"],
        },
        {
          type: "object",
          properties: { kind: { type: "string", const: "square" }, side: { type: "number" } },
          required: ["kind", "side"],
        },
      ],
    });
  });

  test("a discriminated union and z.xor (oneOf of disjoint options) become anyOf", () => {
    const schema = schemaOfStandard(
      z.object({
        shape: z.discriminatedUnion("kind", [
          z.object({ kind: z.literal("circle"), r: z.number() }),
          z.object({ kind: z.literal("square"), side: z.number() }),
        ]),
        id: z.xor([z.string(), z.int()]),
      }),
    );
    expect(schema.properties?.shape).toMatchObject({
      anyOf: [{ required: ["kind", "r"] }, { required: ["kind", "side"] }],
    });
    expect(schema.properties?.id).toMatchObject({ anyOf: [{ type: "string" }, { type: "integer" }] });
  });

  test("recursion by $ref to the document itself becomes a $defs entry the checker follows", () => {
    const Node: z.ZodType<CategoryNode> = z.object({
      name: z.string(),
      get children() {
        return z.array(Node).optional();
      },
    });
    const schema = schemaOfStandard(Node);
    expect(schema.properties?.children).toEqual({ type: "array", items: { $ref: "#/$defs/Root" } });
    expect(schema.$defs?.Root).toMatchObject({ type: "object", required: ["name"] });
    const check = shapeCheckOf(schema);
    expect(check({ name: "a", children: [{ name: "b", children: [{ name: "c" }] }] })).toBeUndefined();
    expect(check({ name: "a", children: [{ name: "b", children: [{}] }] })).toEqual({
      path: "children[0].children[0].name",
      problem: "is required",
    });
  });

  test("a named schema lands in $defs and is referred to there", () => {
    const Money = z.object({ cents: z.int() }).meta({ id: "Money" });
    const schema = schemaOfStandard(z.object({ price: Money, tip: Money.optional() }), {});
    expect(schema.properties?.price).toEqual({ $ref: "#/$defs/Money" });
    expect(schema.$defs?.Money).toMatchObject({ type: "object", properties: { cents: { type: "integer" } } });
  });

  test("the output side: a schema with a transform cannot be written as JSON Schema", () => {
    const withTransform = z.object({ n: z.string().transform((text) => text.length) });
    expect(schemaOfStandard(withTransform).properties?.n).toEqual({ type: "string" });
    const error = refusal(() => schemaOfStandard(withTransform, { io: "output" }));
    expect(error.code).toBe("CONVERSION_FAILED");
    expect(error.message).toMatch(/^zod cannot write the schema's output as JSON Schema: Transforms/);
  });
});

describe("valibot", () => {
  test("wrapped with toStandardJsonSchema: read like any other", () => {
    const schema = schemaOfStandard(
      toStandardJsonSchema(
        v.object({
          email: v.pipe(v.string(), v.email()),
          age: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
          role: v.picklist(["admin", "user"]),
          note: v.nullable(v.string()),
        }),
      ),
    );
    expect(schema).toEqual({
      type: "object",
      properties: {
        email: { type: "string", format: "email" },
        age: { type: "integer", minimum: 0 },
        role: { type: "string", enum: ["admin", "user"] },
        note: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
      required: ["email", "role", "note"],
    });
  });

  test("its refinement (v.check) is refused by its converter unless left to validate", () => {
    const checked = v.pipe(
      v.object({ a: v.number(), b: v.number() }),
      v.check((input) => input.a < input.b),
    );
    expect(refusal(() => schemaOfStandard(toStandardJsonSchema(checked))).code).toBe("CONVERSION_FAILED");
    const schema = schemaOfStandard(toStandardJsonSchema(checked), {
      libraryOptions: { ignoreActions: ["check"] },
    });
    expect(schema.required).toEqual(["a", "b"]);
  });

  test("unwrapped: no Standard JSON Schema, and the fix says how to add it", () => {
    const bare = v.object({ a: v.string() });
    expect(isStandardSchema(bare)).toBe(true);
    const error = refusal(() => schemaOfStandard(bare));
    expect(error.code).toBe("NO_JSON_SCHEMA");
    expect(error.fix).toContain("toStandardJsonSchema(schema) from @valibot/to-json-schema");
  });
});

describe("what the subset cannot carry is refused", () => {
  const cases: [string, () => StandardSchemaV1, SchemaConversionErrorCode, RegExp][] = [
    [
      "multipleOf",
      () => z.object({ n: z.number().multipleOf(3) }),
      "UNSUPPORTED_KEYWORD",
      /"multipleOf" at \/properties\/n/,
    ],
    [
      "a tuple (prefixItems)",
      () => z.object({ t: z.tuple([z.string(), z.number()]) }),
      "UNSUPPORTED_KEYWORD",
      /"prefixItems" at \/properties\/t/,
    ],
    [
      "allOf",
      () => writing({ type: "object", properties: { a: { allOf: [{ type: "string" }, { maxLength: 3 }] } } }),
      "UNSUPPORTED_KEYWORD",
      /"allOf" at \/properties\/a/,
    ],
    [
      "oneOf whose options overlap",
      () =>
        writing({
          type: "object",
          properties: { a: { oneOf: [{ type: "string" }, { type: "string", maxLength: 3 }] } },
        }),
      "UNSUPPORTED_KEYWORD",
      /"oneOf" at \/properties\/a has options a value could fit more than one of/,
    ],
    [
      "a rule on record keys",
      () => z.object({ r: z.record(z.enum(["a", "b"]), z.string()) }),
      "UNSUPPORTED_KEYWORD",
      /"propertyNames" at \/properties\/r/,
    ],
    [
      "examples",
      () => z.object({ s: z.string().meta({ examples: ["x"] }) }),
      "UNSUPPORTED_KEYWORD",
      /"examples" at \/properties\/s/,
    ],
    [
      "a value of no object kind",
      () => z.array(z.string()),
      "NOT_AN_OBJECT",
      /describes a array, not an object/,
    ],
    [
      "a $ref to another document",
      () => writing({ type: "object", properties: { a: { $ref: "https://example.com/a.json" } } }),
      "UNSUPPORTED_REF",
      /"https:\/\/example.com\/a.json" at \/properties\/a/,
    ],
    [
      "a $ref into properties",
      () => writing({ type: "object", properties: { a: { type: "string" }, b: { $ref: "#/properties/a" } } }),
      "UNSUPPORTED_REF",
      /points outside the schema's own \$defs/,
    ],
    [
      "a $ref to a missing $defs entry",
      () => writing({ type: "object", properties: { a: { $ref: "#/$defs/Gone" } } }),
      "UNSUPPORTED_REF",
      /#\/\$defs\/Gone/,
    ],
    [
      "a keyword beside $ref",
      () =>
        writing({
          $defs: { A: { type: "string" } },
          type: "object",
          properties: { a: { $ref: "#/$defs/A", minLength: 2 } },
        }),
      "UNSUPPORTED_KEYWORD",
      /"minLength" at \/properties\/a/,
    ],
    [
      "a keyword of another type",
      () => writing({ type: "object", properties: { a: { type: "string", minimum: 2 } } }),
      "UNSUPPORTED_KEYWORD",
      /"minimum" at \/properties\/a applies to number values/,
    ],
    [
      "a pattern ECMAScript cannot compile",
      () => writing({ type: "object", properties: { a: { type: "string", pattern: "(?<" } } }),
      "UNSUPPORTED_KEYWORD",
      /"pattern" at \/properties\/a cannot be carried/,
    ],
    [
      "uniqueItems that is not a boolean",
      () => writing({ type: "object", properties: { a: { type: "array", uniqueItems: "yes" } } }),
      "UNSUPPORTED_KEYWORD",
      /"uniqueItems" at \/properties\/a cannot be carried: it is not a boolean/,
    ],
    [
      "uniqueItems on a string",
      () => writing({ type: "object", properties: { a: { type: "string", uniqueItems: true } } }),
      "UNSUPPORTED_KEYWORD",
      /"uniqueItems" at \/properties\/a applies to array values/,
    ],
    [
      "the schema false",
      () => writing({ type: "object", properties: { a: false } }),
      "UNSUPPORTED_KEYWORD",
      /the schema false/,
    ],
    [
      "another dialect",
      () => writing({ $schema: "http://json-schema.org/draft-07/schema#", type: "object" }),
      "UNSUPPORTED_KEYWORD",
      /"\$schema" at the root cannot be carried: it names "http:\/\/json-schema.org\/draft-07\/schema#"/,
    ],
    [
      "nested $defs",
      () => writing({ type: "object", properties: { a: { type: "object", $defs: {} } } }),
      "UNSUPPORTED_KEYWORD",
      /"\$defs" at \/properties\/a/,
    ],
  ];
  test.each(cases)("%s", (_name, make, code, message) => {
    const error = refusal(() => schemaOfStandard(make()));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/\n {2}Fix: \S/);
  });

  test("a value that is not a Standard Schema", () => {
    expect(refusal(() => schemaOfStandard({} as StandardSchemaV1)).code).toBe("NOT_A_STANDARD_SCHEMA");
  });
});

test("the value is read once per schema and side", () => {
  const schema = z.object({ a: z.string() });
  const first: Schema = schemaOfStandard(schema);
  expect(schemaOfStandard(schema)).toBe(first);
  expect(schemaOfStandard(schema, { io: "output" })).not.toBe(first);
});
