import type { ObjectTypeSchema, Schema } from "@executa/core";

/**
 * `value` without the `null`s strict mode let the model put in optional properties (so
 * that defaults and `@IsOptional()` apply as when the property is absent), recursively
 * through nested objects and arrays of them (a recursive class's `$ref` included).
 */
export function dropNullOptionals(value: unknown, schema: ObjectTypeSchema): unknown {
  return dropped(value, schema, schema.$defs ?? {});
}

function dropped(value: unknown, given: Schema, defs: Readonly<Record<string, Schema>>): unknown {
  const schema = "$ref" in given ? defs[given.$ref.slice("#/$defs/".length)] : given;
  if (schema === undefined || !("type" in schema)) return value;
  if (schema.type === "array" && schema.items !== undefined && Array.isArray(value)) {
    const items = schema.items;
    return value.map((item) => dropped(item, items, defs));
  }
  if (schema.type !== "object" || schema.properties === undefined) return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const required = new Set(schema.required);
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [name, field] of Object.entries(schema.properties)) {
    if (out[name] === null && !required.has(name)) delete out[name];
    else if (out[name] !== undefined) out[name] = dropped(out[name], field, defs);
  }
  return out;
}
