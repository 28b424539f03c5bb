/**
 * A Standard Schema (zod 4, valibot, …) as a `createObject` target: the response format
 * comes from its schema value, the answer is checked by the library's own `validate`
 * (refinements and transforms included) and answered as the library's output value.
 */
import type { JsonSchema } from "../mcp/input-schema.js";
import { responseFormatSchema } from "../schema/projections/response-format.js";
import type { ObjectTypeSchema, Schema } from "../schema/schema.js";
import { schemaOfStandard } from "../schema/standard/schema-of-standard.js";
import { standardIssues } from "../schema/standard/standard-issues.js";
import type { StandardSchemaV1 } from "../schema/standard/standard-schema.js";
import type { ObjectSchema, ObjectValidation } from "./object-schema.js";

/** What `createObject` needs of a Standard Schema target. */
export interface StandardObjectTarget<T> {
  /** The response format's schema, name and description. */
  readonly described: ObjectSchema;
  /** A parsed answer checked by the library; the output value, or every issue. */
  validate(value: unknown): Promise<ObjectValidation<T>>;
}

/** Reads `target`; throws a `SchemaConversionError` for a schema the subset cannot carry. */
export function standardObjectTarget<S extends StandardSchemaV1>(
  target: S,
  strict: boolean,
): StandardObjectTarget<StandardSchemaV1.InferOutput<S>> {
  const schema = schemaOfStandard(target, { io: "input" });
  const json: JsonSchema = responseFormatSchema(schema, strict);
  return {
    described: {
      schema: json,
      name: schema.title ?? "object",
      ...(schema.description !== undefined && { description: schema.description }),
    },
    async validate(value) {
      const answer = strict ? withoutNullOptionals(value, schema, schema.$defs ?? {}) : value;
      const result = await target["~standard"].validate(answer);
      if (result.issues === undefined)
        return { ok: true, value: result.value as StandardSchemaV1.InferOutput<S> };
      return { ok: false, issues: standardIssues(result.issues) };
    },
  };
}

/**
 * `value` without the `null`s strict structured output lets a model send for an optional
 * property (it must list every property): the library sees such a property as absent,
 * unless its schema admits `null` itself.
 */
function withoutNullOptionals(
  value: unknown,
  schema: Schema,
  defs: Readonly<Record<string, Schema>>,
): unknown {
  const resolved = resolve(schema, defs);
  if (Array.isArray(value)) {
    const items = "type" in resolved && resolved.type === "array" ? resolved.items : undefined;
    return items === undefined ? value : value.map((item) => withoutNullOptionals(item, items, defs));
  }
  if (typeof value !== "object" || value === null || !("type" in resolved) || resolved.type !== "object")
    return value;
  return objectWithoutNullOptionals(value as Record<string, unknown>, resolved, defs);
}

function objectWithoutNullOptionals(
  record: Record<string, unknown>,
  schema: ObjectTypeSchema,
  defs: Readonly<Record<string, Schema>>,
): Record<string, unknown> {
  const required = new Set(schema.required);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(record)) {
    const property = schema.properties?.[key];
    if (property === undefined) out[key] = field;
    else if (field === null && !required.has(key) && !admitsNull(property, defs)) continue;
    else out[key] = withoutNullOptionals(field, property, defs);
  }
  return out;
}

function admitsNull(schema: Schema, defs: Readonly<Record<string, Schema>>): boolean {
  const resolved = resolve(schema, defs);
  if ("anyOf" in resolved) return resolved.anyOf.some((option) => admitsNull(option, defs));
  return !("type" in resolved) || resolved.type === undefined || resolved.type === "null";
}

function resolve(schema: Schema, defs: Readonly<Record<string, Schema>>): Schema {
  let current = schema;
  for (let hops = 0; "$ref" in current && hops < 32; hops++)
    current = defs[current.$ref.slice("#/$defs/".length)] ?? {};
  return current;
}
