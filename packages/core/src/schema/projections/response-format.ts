import type { ObjectTypeSchema, Schema } from "../schema.js";
import { type JsonSchema, withCodecSchema } from "./json-schema.js";

/**
 * The JSON Schema a `createObject` target is asked for with (`response_format`'s
 * `json_schema.schema`), from the target's schema value.
 *
 * `strict` gives the form strict structured output asks for: every property listed in
 * `required` (an optional one may be `null` instead), no additional properties, no
 * `default` keywords. Otherwise only required properties are listed and defaults are
 * kept. Numeric enums are asked for by their numbers (the answer is checked as the
 * method's values); a recursive class by `$ref` into the root's `$defs`.
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
  if (field.description !== undefined) json.description = field.description;
  if (!strict && "default" in field) json.default = field.default;
  return strict && !required ? nullable(json) : json;
}

const COPIED = ["enum", "minimum", "maximum", "minLength", "maxLength", "format"] as const;

/** The schema of one value: its type and facets, its elements or its fields. */
function valueSchema(schema: Schema, strict: boolean): JsonSchema {
  if ("$ref" in schema) return { $ref: schema.$ref };
  if ("anyOf" in schema) return { anyOf: schema.anyOf.map((member) => valueSchema(member, strict)) };
  if (schema.type === "object" && schema.properties !== undefined) return objectOf(schema, strict);
  const json: JsonSchema = { type: schema.type };
  for (const key of COPIED) {
    const value = (schema as Partial<Record<(typeof COPIED)[number], unknown>>)[key];
    if (value !== undefined) json[key] = Array.isArray(value) ? [...value] : value;
  }
  if (typeof json.format === "string") withCodecSchema(json, json.format);
  if (schema.type === "array") json.items = valueSchema(schema.items ?? { type: "string" }, strict);
  return json;
}

/** `schema` that also admits `null` (how strict mode expresses an optional property). */
function nullable(schema: JsonSchema): JsonSchema {
  if (schema.type === undefined) return { anyOf: [schema, { type: "null" }] };
  const out: JsonSchema = { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  return out;
}
