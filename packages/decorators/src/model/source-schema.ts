import type { SourceField, SourceSchema, ValueFormat } from "@executa/core/internal";
import { UNSAFE_KEYS } from "../binding/sanitize.js";
import type { ArgumentSchema, ItemSchema } from "./types.js";

/** The facets a number, a formatted string (a date, a URL) or an enum carries, wherever it sits. */
interface Facets {
  enum?: ItemSchema["enum"];
  enumNames?: readonly string[];
  minimum?: number;
  maximum?: number;
  format?: ValueFormat;
}

/**
 * The element schema a source type gives an array's elements: its type, enum, bounds,
 * nested elements and object shape.
 */
export function sourceItems(schema: SourceSchema): ItemSchema {
  const items: ItemSchema = { type: schema.type };
  copyFacets(items, schema);
  if (schema.type === "array") items.items = schema.items ? sourceItems(schema.items) : { type: "string" };
  if (schema.type === "object" && schema.properties) items.fields = sourceFields(schema.properties);
  return items;
}

/**
 * The known fields of an object from its source shape (an interface, a type alias, an
 * object literal type): checked at invoke time like a nested DTO's, and listed in the
 * manifest's `properties`. Keys that binding strips (`__proto__`, …) are left out.
 */
export function sourceFields(properties: Readonly<Record<string, SourceField>>): ArgumentSchema[] {
  return Object.entries(properties)
    .filter(([name]) => !UNSAFE_KEYS.has(name))
    .map(([name, field]) => sourceFieldSchema(name, field));
}

function sourceFieldSchema(name: string, field: SourceField): ArgumentSchema {
  const { schema } = field;
  const hasDefault = field.default !== undefined;
  const argument: ArgumentSchema = {
    name,
    type: schema.type,
    required: !(field.optional || hasDefault),
    hasDefault,
  };
  if (hasDefault) argument.default = field.default;
  if (field.description !== undefined && field.description.trim() !== "")
    argument.description = field.description;
  copyFacets(argument, schema);
  if (schema.type === "array") argument.items = schema.items ? sourceItems(schema.items) : { type: "string" };
  if (schema.type === "object" && schema.properties) argument.fields = sourceFields(schema.properties);
  return argument;
}

/** Copies `enum` (with a numeric enum's names), `minimum`, `maximum` and `format` when the source gives them. */
function copyFacets(target: Facets, schema: SourceSchema): void {
  if (schema.enum !== undefined && schema.enum.length > 0) target.enum = [...schema.enum];
  if (target.enum !== undefined && schema.enumNames !== undefined) target.enumNames = [...schema.enumNames];
  if (schema.minimum !== undefined) target.minimum = schema.minimum;
  if (schema.maximum !== undefined) target.maximum = schema.maximum;
  if (schema.format !== undefined) target.format = schema.format;
}
