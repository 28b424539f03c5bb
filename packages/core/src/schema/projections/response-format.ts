import type { ObjectTypeSchema, Schema } from "../schema.js";
import { describedWithNotes, STRICT_FORMATS } from "./description-notes.js";
import { type JsonSchema, withCodecSchema } from "./json-schema.js";

/**
 * The JSON Schema a `createObject` target is asked for with (`response_format`'s
 * `json_schema.schema`), from the target's schema value.
 *
 * `strict` gives the form strict structured output (OpenAI's `strict: true`) asks for:
 * every property listed in `required` (an optional one may be `null` instead), no
 * additional properties, no `default` keywords, and only the keywords it accepts —
 * `enum`, `const`, `pattern`, `format` of {@link STRICT_FORMATS}, `minimum` / `maximum`,
 * `exclusiveMinimum` / `exclusiveMaximum`, `minItems` / `maxItems`; length bounds,
 * `uniqueItems` and other formats are said in the description (see {@link describedWithNotes}). Otherwise every
 * keyword is kept, only required properties are listed and defaults are kept. Numeric
 * enums are asked for by their numbers (the answer is checked as the method's values); a
 * recursive class by `$ref` into the root's `$defs`; the elements of an array of any JSON
 * value as any value (strict: any JSON value strict mode can name, objects excepted).
 */
export function responseFormatSchema(schema: ObjectTypeSchema, strict: boolean): JsonSchema {
  const json = objectOf(schema, strict);
  if (schema.$defs !== undefined)
    json.$defs = Object.fromEntries(
      Object.entries(schema.$defs).map(([name, def]) => [name, valueSchema(def, strict)]),
    );
  return json;
}

function objectOf(schema: ObjectTypeSchema, strict: boolean): JsonSchema {
  const requiredNames = new Set(schema.required);
  const properties: Record<string, JsonSchema> = {};
  for (const [name, field] of Object.entries(schema.properties ?? {}))
    properties[name] = propertyOf(field, strict, requiredNames.has(name));
  const required = Object.keys(properties).filter((name) => strict || requiredNames.has(name));
  return { type: "object", properties, required, additionalProperties: false };
}

function propertyOf(field: Schema, strict: boolean, required: boolean): JsonSchema {
  const json = valueSchema(field, strict);
  if (!strict && "default" in field) json.default = field.default;
  return strict && !required ? nullable(json) : json;
}

/** Keywords every form carries. */
const COPIED = [
  "enum",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "pattern",
  "minItems",
  "maxItems",
] as const;

/** Keywords only the form that is not strict carries (strict mode refuses them). */
const NOT_STRICT = ["minLength", "maxLength", "uniqueItems"] as const;

/** What strict mode may ask for where any JSON value is allowed (it cannot name an open object). */
const ANY_STRICT: JsonSchema = {
  anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }, { type: "null" }],
};

/** The schema of one value: its type and facets, its elements or its fields. */
function valueSchema(schema: Schema, strict: boolean): JsonSchema {
  return withDescription(shapeOf(schema, strict), schema, strict);
}

function shapeOf(schema: Schema, strict: boolean): JsonSchema {
  if ("$ref" in schema) return { $ref: schema.$ref };
  if ("anyOf" in schema) return { anyOf: schema.anyOf.map((member) => valueSchema(member, strict)) };
  if (schema.type === undefined) return anyValue(strict);
  if (schema.type === "object" && schema.properties !== undefined) return objectOf(schema, strict);
  const json = keywordsOf(schema, strict);
  if ("format" in schema && schema.format !== undefined) withFormat(json, schema.format, strict);
  if (schema.type === "array")
    json.items = schema.items !== undefined ? valueSchema(schema.items, strict) : anyValue(strict);
  return json;
}

/** The type and the keywords the form carries. */
function keywordsOf(schema: Schema & { type: string }, strict: boolean): JsonSchema {
  const json: JsonSchema = { type: schema.type };
  const facts = schema as unknown as Readonly<Record<string, unknown>>;
  for (const key of strict ? COPIED : [...COPIED, ...NOT_STRICT]) {
    const value = facts[key];
    if (value !== undefined) json[key] = Array.isArray(value) ? [...value] : value;
  }
  return json;
}

/** A codec's JSON Schema for its format; strict mode keeps only a format it accepts. */
function withFormat(json: JsonSchema, format: string, strict: boolean): void {
  json.format = format;
  withCodecSchema(json, format);
  if (strict && typeof json.format === "string" && !STRICT_FORMATS.has(json.format)) delete json.format;
}

function anyValue(strict: boolean): JsonSchema {
  return strict ? structuredClone(ANY_STRICT) : {};
}

/** `json` with the schema's description and what its form has no keyword for. */
function withDescription(json: JsonSchema, schema: Schema, strict: boolean): JsonSchema {
  const description = describedWithNotes(schema, strict ? "strict-response-format" : "response-format");
  if (description !== undefined) json.description = description;
  return json;
}

/** `schema` that also admits `null` (how strict mode expresses an optional property). */
function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type !== "string") return { anyOf: [schema, { type: "null" }] };
  const out: JsonSchema = { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  return out;
}
