import type { ArgumentSchema, ItemSchema } from "../model/types.js";

/**
 * The JSON Schema of an object whose properties are `args` — the arguments the DTO
 * converter reads from a class (the same reading that builds a tool's parameters).
 *
 * `strict` gives the form strict structured output asks for: every property listed in
 * `required` (an optional one may be `null` instead), no additional properties, no
 * `default` keywords. Otherwise only required arguments are listed and defaults are kept.
 */
export function argumentsJsonSchema(
  args: readonly ArgumentSchema[],
  strict: boolean,
): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const arg of args) properties[arg.name] = propertySchema(arg, strict);
  const required = args.filter((arg) => strict || arg.required).map((arg) => arg.name);
  return { type: "object", properties, required, additionalProperties: false };
}

function propertySchema(arg: ArgumentSchema, strict: boolean): Record<string, unknown> {
  const schema = valueSchema(arg.type, arg, strict);
  if (arg.description !== undefined) schema.description = arg.description;
  if (!strict && arg.hasDefault) schema.default = arg.default;
  return strict && !arg.required ? nullable(schema) : schema;
}

/** The schema of one value: its type, enum, elements or fields. */
function valueSchema(
  type: ArgumentSchema["type"],
  shape: Pick<
    ArgumentSchema,
    "enum" | "items" | "fields" | "minimum" | "maximum" | "minLength" | "maxLength" | "format"
  >,
  strict: boolean,
): Record<string, unknown> {
  if (type === "object" && shape.fields) return argumentsJsonSchema(shape.fields, strict);
  const schema: Record<string, unknown> = { type };
  if (shape.enum !== undefined) schema.enum = [...shape.enum];
  if (shape.minimum !== undefined) schema.minimum = shape.minimum;
  if (shape.maximum !== undefined) schema.maximum = shape.maximum;
  if (shape.minLength !== undefined) schema.minLength = shape.minLength;
  if (shape.maxLength !== undefined) schema.maxLength = shape.maxLength;
  if (shape.format !== undefined) schema.format = shape.format;
  if (type === "array") schema.items = itemSchema(shape.items ?? { type: "string" }, strict);
  return schema;
}

function itemSchema(items: ItemSchema, strict: boolean): Record<string, unknown> {
  return valueSchema(items.type, items, strict);
}

/** `schema` that also admits `null` (how strict mode expresses an optional property). */
function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  return out;
}

/**
 * `value` without the `null`s strict mode let the model put in optional properties (so
 * that defaults and `@IsOptional()` apply as when the property is absent), recursively
 * through nested DTOs.
 */
export function dropNullOptionals(value: unknown, args: readonly ArgumentSchema[]): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const arg of args) {
    const field = out[arg.name];
    if (field === null && !arg.required) delete out[arg.name];
    else if (arg.fields) out[arg.name] = dropNullOptionals(field, arg.fields);
    else if (Array.isArray(field) && arg.items?.fields) {
      const fields = arg.items.fields;
      out[arg.name] = field.map((item) => dropNullOptionals(item, fields));
    }
  }
  return out;
}
