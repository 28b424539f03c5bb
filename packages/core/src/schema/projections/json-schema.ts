import { codecNamed } from "../codecs/index.js";
import type { Schema } from "../schema.js";
import { describedWithNotes } from "./description-notes.js";

/** A JSON Schema object, as MCP carries it in `inputSchema` and `outputSchema`. */
export type JsonSchema = Record<string, unknown>;

/**
 * The schema value as plain JSON Schema 2020-12, losing nothing a client can use: formats,
 * bounds, lengths, nested `required`, `additionalProperties: false`, `anyOf`, `$defs` and
 * `$ref`. The two members that are not JSON Schema are projected: a class `target` is
 * left out; a numeric enum is shown by its member names (what the model reads and may
 * send; each stands for its number), the mapping said in the description, as are the
 * `rules` no keyword expresses. A union with
 * `null` of one typed schema is written `type: [T, "null"]` (with `null` among its
 * `enum`), the form released surfaces already hold.
 */
export function jsonSchemaOf(schema: Schema): JsonSchema {
  if ("anyOf" in schema && schema.anyOf !== undefined) return unionSchema(schema.anyOf, schema);
  const {
    target: _target,
    rules: _rules,
    enumNames,
    $defs,
    ...rest
  } = schema as Schema & {
    target?: unknown;
    rules?: unknown;
    enumNames?: readonly string[];
    $defs?: Readonly<Record<string, Schema>>;
  };
  const json: JsonSchema = { ...rest };
  const description = describedWithNotes(schema, "json-schema");
  if (description !== undefined) json.description = description;
  if (enumNames !== undefined) showEnumNames(json, enumNames);
  if ("format" in schema && schema.format !== undefined) withCodecSchema(json, schema.format);
  if ("items" in schema && schema.items !== undefined) json.items = jsonSchemaOf(schema.items);
  if ("properties" in schema && schema.properties !== undefined)
    json.properties = mapValues(schema.properties);
  if ("additionalProperties" in schema && typeof schema.additionalProperties === "object")
    json.additionalProperties = jsonSchemaOf(schema.additionalProperties);
  if ($defs !== undefined) json.$defs = mapValues($defs);
  return json;
}

/** A numeric enum shown by its member names (a default by its name); bounds go with the numbers. */
function showEnumNames(json: JsonSchema, names: readonly string[]): void {
  const values = json.enum;
  if (!Array.isArray(values)) return;
  json.type = "string";
  json.enum = [...names];
  delete json.minimum;
  delete json.maximum;
  if ("default" in json) json.default = names[values.indexOf(json.default)] ?? json.default;
}

/**
 * A codec's string as its JSON Schema says it: `format: "date-time"` for a `Date`; for a
 * registered codec, what it declared (a `pattern` where its name is no standard format).
 */
export function withCodecSchema(json: JsonSchema, format: string): void {
  const codec = codecNamed(format);
  if (codec === undefined) return;
  delete json.format;
  Object.assign(json, codec.jsonSchema);
}

function unionSchema(members: readonly Schema[], schema: Schema): JsonSchema {
  const { anyOf: _anyOf, rules: _rules, ...rest } = schema as Schema & { anyOf: readonly Schema[] };
  const annotations: JsonSchema = { ...rest };
  const description = describedWithNotes(schema, "json-schema");
  if (description !== undefined) annotations.description = description;
  const nonNull = members.filter((member) => !("type" in member && member.type === "null"));
  const [single] = nonNull;
  if (
    nonNull.length === 1 &&
    members.length === 2 &&
    single &&
    typeof (single as { type?: unknown }).type === "string"
  ) {
    const json = jsonSchemaOf(single);
    json.type = [json.type, "null"];
    if (Array.isArray(json.enum)) json.enum = [...json.enum, null];
    return { ...json, ...annotations };
  }
  return { ...annotations, anyOf: members.map(jsonSchemaOf) };
}

function mapValues(schemas: Readonly<Record<string, Schema>>): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, jsonSchemaOf(schema)]));
}
