import {
  type ObjectTypeSchema,
  PARAMETER_TYPES,
  type ParameterType,
  type Schema,
  type SchemaTarget,
} from "@executa/core";
import { type SourceField, withoutNull } from "@executa/core/internal";
import { UNSAFE_KEYS } from "../binding/sanitize.js";
import { objectSchema } from "./arguments-schema.js";
import type { ResolvedArgument } from "./types.js";

/**
 * The parameter type of a recorded source schema: a nullable type's value type (an
 * argument's `null` is not sent), and `object` for a union of different types or a type
 * that is only `null`, which is what reflection says of them.
 */
export function sourceType(recorded: Schema): ParameterType {
  const schema = withoutNull(recorded);
  return "type" in schema && schema.type !== undefined && schema.type !== "null" ? schema.type : "object";
}

/**
 * The class the source names for a field's values (`isArray`: for its elements'), read
 * from the recorded schema's `target` (a getter in the emitted code: call this once every
 * module has loaded); undefined when the source names none.
 */
export function sourceTarget(recorded: Schema, isArray: boolean): SchemaTarget | undefined {
  const schema = withoutNull(recorded);
  const value = isArray
    ? "items" in schema && schema.items
      ? withoutNull(schema.items)
      : undefined
    : schema;
  return value && "target" in value ? value.target : undefined;
}

/**
 * The schema value a recorded source schema gives an argument's value (an array's
 * elements, an object's field): its type (see {@link sourceType}), enum (with a numeric
 * enum's names), bounds, format, elements (strings when the source names none) and object
 * shape, its fields' unknown keys refused. The class a value becomes an instance of is
 * left to the caller (the DTO reading names it).
 */
export function sourceValue(recorded: Schema): Schema {
  const schema = withoutNull(recorded);
  const type = sourceType(schema);
  if (!("type" in schema) || schema.type !== type) return { ...PARAMETER_TYPES[type].schema } as Schema;
  const enumValues =
    "enum" in schema && schema.enum !== undefined && schema.enum.length > 0 ? [...schema.enum] : undefined;
  return {
    ...PARAMETER_TYPES[type].schema,
    ...(schema.type === "array" && { items: schema.items ? sourceValue(schema.items) : { type: "string" } }),
    ...(enumValues && { enum: enumValues }),
    ...(enumValues &&
      "enumNames" in schema &&
      schema.enumNames !== undefined && { enumNames: [...schema.enumNames] }),
    ...("format" in schema && schema.format !== undefined && { format: schema.format }),
    ...("minimum" in schema && schema.minimum !== undefined && { minimum: schema.minimum }),
    ...("maximum" in schema && schema.maximum !== undefined && { maximum: schema.maximum }),
    ...(schema.type === "object" && schema.properties && sourceShape(schema)),
  } as Schema;
}

/**
 * The known fields of an object from its recorded source shape (an interface, a type
 * alias, an object literal type): checked at invoke time like a nested DTO's, and listed
 * in the manifest's `properties`. Keys that binding strips (`__proto__`, …) are left out.
 */
export function sourceShape(schema: ObjectTypeSchema): ObjectTypeSchema {
  const required = new Set(schema.required);
  return objectSchema(
    Object.entries(schema.properties ?? {})
      .filter(([name]) => !UNSAFE_KEYS.has(name))
      .map(([name, property]) => sourceArgument(name, property, required.has(name), property)),
  );
}

/** A DTO class's recorded fields as arguments, in the same way (see {@link sourceShape}). */
export function sourceFields(fields: Readonly<Record<string, SourceField>>): ResolvedArgument[] {
  return Object.entries(fields)
    .filter(([name]) => !UNSAFE_KEYS.has(name))
    .map(([name, field]) =>
      sourceArgument(name, field.schema, !(field.optional || field.default !== undefined), field),
    );
}

/** One recorded field as an argument, with its doc comment and default (`about`: the field or its property schema). */
function sourceArgument(
  name: string,
  schema: Schema,
  required: boolean,
  about: { readonly description?: string | undefined; readonly default?: unknown },
): ResolvedArgument {
  const described = about.description !== undefined && about.description.trim() !== "";
  return {
    name,
    required,
    schema: {
      ...sourceValue(schema),
      ...(described && { description: about.description }),
      ...(about.default !== undefined && { default: about.default }),
    },
  };
}
