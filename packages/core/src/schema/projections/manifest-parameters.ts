import type { ParameterType } from "../../manifest/parameter-types/index.js";
import type { ParameterItems, ParameterSchema } from "../../wire/manifest.js";
import type { ObjectTypeSchema, Schema } from "../schema.js";
import { describedWithNotes } from "./description-notes.js";

/** A nested property of a manifest parameter. */
type ManifestProperty = ParameterItems & { description?: string };

/**
 * A tool's input as the Executa manifest's `parameters`, with the fields the protocol
 * names, in the spec's order. Per parameter: `name`, `type`, `items` (arrays; always
 * given, JSON Schema style), `description`, `required` (always given), `default`, `enum`,
 * then `minimum` / `maximum`, `minLength` / `maxLength` and `properties` (objects of a
 * known shape). What the dialect has no field for (a format, a numeric enum's mapping,
 * facts of elements and nested properties) is said in the description (see
 * {@link describedWithNotes}). A numeric enum is shown by its member names, as a string
 * enum; a recursive reference as an object without properties.
 */
export function manifestParameters(input: ObjectTypeSchema): ParameterSchema[] {
  const required = new Set(input.required);
  return Object.entries(input.properties ?? {}).map(([name, schema]) =>
    parameterOf(name, schema, required.has(name)),
  );
}

function parameterOf(name: string, schema: Schema, required: boolean): ParameterSchema {
  const shown = shownEnum(schema);
  const parameter: ParameterSchema = { name, type: shown.type as ParameterType };
  if ("items" in schema && schema.items !== undefined) parameter.items = itemsOf(schema.items);
  const description = describedWithNotes(schema, "parameter");
  if (description !== undefined) parameter.description = description;
  parameter.required = required;
  if ("default" in schema) parameter.default = structuredClone(shown.value(schema.default));
  if (shown.enum !== undefined) parameter.enum = shown.enum;
  const facts = schema as Partial<Record<"minimum" | "maximum" | "minLength" | "maxLength", number>>;
  for (const key of ["minimum", "maximum", "minLength", "maxLength"] as const)
    if (facts[key] !== undefined) parameter[key] = facts[key];
  if ("properties" in schema && schema.properties !== undefined) parameter.properties = propertiesOf(schema);
  return parameter;
}

function itemsOf(schema: Schema): ParameterItems {
  const shown = shownEnum(schema);
  const items: ParameterItems = { type: shown.type as ParameterItems["type"] };
  if (shown.enum !== undefined) items.enum = shown.enum;
  if ("items" in schema && schema.items !== undefined) items.items = itemsOf(schema.items);
  if ("properties" in schema && schema.properties !== undefined) {
    items.properties = propertiesOf(schema);
    items.required = [...(schema.required ?? [])];
  }
  return items;
}

/** The `properties` of an object: each field's schema, with what has no field there said in its description. */
function propertiesOf(schema: ObjectTypeSchema): Record<string, ManifestProperty> {
  const required = new Set(schema.required);
  const properties: Record<string, ManifestProperty> = {};
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const shown = shownEnum(field);
    const property: ManifestProperty = { type: shown.type as ParameterItems["type"] };
    const description = describedWithNotes(field, "property", required.has(name));
    if (description !== undefined) property.description = description;
    if (shown.enum !== undefined) property.enum = shown.enum;
    if ("items" in field && field.items !== undefined) property.items = itemsOf(field.items);
    if ("properties" in field && field.properties !== undefined) {
      property.properties = propertiesOf(field);
      property.required = [...(field.required ?? [])];
    }
    properties[name] = property;
  }
  return properties;
}

type EnumValue = string | number | boolean;

/**
 * What the manifest shows of a value's type and enum: a numeric TypeScript enum's member
 * names as a string enum (the model reads and sends `"High"`, the method gets 2); other
 * enums as they are; a reference (recursion) as an object. `value` maps a default the same way.
 */
function shownEnum(schema: Schema): {
  type: string;
  enum?: EnumValue[];
  value: (value: unknown) => unknown;
} {
  const type = "type" in schema && schema.type !== undefined ? schema.type : "object";
  const values = "enum" in schema ? (schema.enum as readonly EnumValue[] | undefined) : undefined;
  const names = "enumNames" in schema ? schema.enumNames : undefined;
  if (values === undefined) return { type, value: (value) => value };
  if (names === undefined) return { type, enum: [...values], value: (value) => value };
  return {
    type: "string",
    enum: [...names],
    value: (value) => {
      const index = values.indexOf(value as EnumValue);
      return index === -1 ? value : names[index];
    },
  };
}
