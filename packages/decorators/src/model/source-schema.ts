import { PARAMETER_TYPES, type Schema } from "@executa/core";
import type { SourceField, SourceSchema } from "@executa/core/internal";
import { UNSAFE_KEYS } from "../binding/sanitize.js";
import { objectSchema } from "./arguments-schema.js";
import type { ResolvedArgument } from "./types.js";

/**
 * The schema value a source type gives a value (an array's elements, an object's field):
 * its type, enum (with a numeric enum's names), bounds, format, nested elements and
 * object shape.
 */
export function sourceValue(schema: SourceSchema): Schema {
  const enumValues = schema.enum !== undefined && schema.enum.length > 0 ? [...schema.enum] : undefined;
  return {
    ...PARAMETER_TYPES[schema.type].schema,
    ...(schema.type === "array" && { items: schema.items ? sourceValue(schema.items) : { type: "string" } }),
    ...(enumValues && { enum: enumValues }),
    ...(enumValues && schema.enumNames !== undefined && { enumNames: [...schema.enumNames] }),
    ...(schema.format !== undefined && { format: schema.format }),
    ...(schema.minimum !== undefined && { minimum: schema.minimum }),
    ...(schema.maximum !== undefined && { maximum: schema.maximum }),
    ...(schema.type === "object" && schema.properties && objectSchema(sourceFields(schema.properties))),
  } as Schema;
}

/**
 * The known fields of an object from its source shape (an interface, a type alias, an
 * object literal type): checked at invoke time like a nested DTO's, and listed in the
 * manifest's `properties`. Keys that binding strips (`__proto__`, …) are left out.
 */
export function sourceFields(properties: Readonly<Record<string, SourceField>>): ResolvedArgument[] {
  return Object.entries(properties)
    .filter(([name]) => !UNSAFE_KEYS.has(name))
    .map(([name, field]) => sourceArgument(name, field));
}

function sourceArgument(name: string, field: SourceField): ResolvedArgument {
  const hasDefault = field.default !== undefined;
  const described = field.description !== undefined && field.description.trim() !== "";
  return {
    name,
    required: !(field.optional || hasDefault),
    schema: {
      ...sourceValue(field.schema),
      ...(described && { description: field.description }),
      ...(hasDefault && { default: field.default }),
    },
  };
}
