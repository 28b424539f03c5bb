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
 * enum; a `const` as an enum of one value. A reference to a `$defs` entry is shown as the entry, once along each path:
 * inside it, a reference to it again (recursion) is an object without properties.
 */
export function manifestParameters(input: ObjectTypeSchema): ParameterSchema[] {
  const required = new Set(input.required);
  const defs = input.$defs ?? {};
  // The input is a recurring class itself (a tool taking a `CategoryNode`): its entry is open.
  const open = Object.keys(defs).filter(
    (name) => input.target !== undefined && targetOf(defs[name]) === input.target,
  );
  const at: Expansion = { defs, open: new Set(open) };
  return Object.entries(input.properties ?? {}).map(([name, schema]) =>
    parameterOf(name, schema, required.has(name), at),
  );
}

/** Where references lead: the root's `$defs`, and the entries being shown on the current path. */
interface Expansion {
  readonly defs: Readonly<Record<string, Schema>>;
  readonly open: ReadonlySet<string>;
}

function targetOf(schema: Schema | undefined): unknown {
  return schema !== undefined && "target" in schema ? schema.target : undefined;
}

/** A reference as the entry it names (with the annotations beside it), unless that entry is open already. */
function expand(given: Schema, at: Expansion): [Schema, Expansion] {
  if (!("$ref" in given)) return [given, at];
  const name = given.$ref.slice("#/$defs/".length);
  const def = at.defs[name];
  if (def === undefined || at.open.has(name)) return [given, at];
  const { $ref: _ref, ...site } = given;
  return [{ ...def, ...site } as Schema, { defs: at.defs, open: new Set(at.open).add(name) }];
}

function parameterOf(name: string, given: Schema, required: boolean, outer: Expansion): ParameterSchema {
  const [schema, at] = expand(given, outer);
  const shown = shownEnum(schema);
  const parameter: ParameterSchema = { name, type: shown.type as ParameterType };
  if ("items" in schema && schema.items !== undefined) parameter.items = itemsOf(schema.items, at);
  const description = describedWithNotes(schema, "parameter");
  if (description !== undefined) parameter.description = description;
  parameter.required = required;
  if ("default" in schema) parameter.default = structuredClone(shown.value(schema.default));
  if (shown.enum !== undefined) parameter.enum = shown.enum;
  const facts = schema as Partial<Record<"minimum" | "maximum" | "minLength" | "maxLength", number>>;
  for (const key of ["minimum", "maximum", "minLength", "maxLength"] as const)
    if (facts[key] !== undefined) parameter[key] = facts[key];
  if ("properties" in schema && schema.properties !== undefined)
    parameter.properties = propertiesOf(schema, at);
  return parameter;
}

function itemsOf(given: Schema, outer: Expansion): ParameterItems {
  const [schema, at] = expand(given, outer);
  const shown = shownEnum(schema);
  const items: ParameterItems = { type: shown.type as ParameterItems["type"] };
  if (shown.enum !== undefined) items.enum = shown.enum;
  if ("items" in schema && schema.items !== undefined) items.items = itemsOf(schema.items, at);
  if ("properties" in schema && schema.properties !== undefined) {
    items.properties = propertiesOf(schema, at);
    items.required = [...(schema.required ?? [])];
  }
  return items;
}

/** The `properties` of an object: each field's schema, with what has no field there said in its description. */
function propertiesOf(schema: ObjectTypeSchema, outer: Expansion): Record<string, ManifestProperty> {
  const required = new Set(schema.required);
  const properties: Record<string, ManifestProperty> = {};
  for (const [name, given] of Object.entries(schema.properties ?? {})) {
    const [field, at] = expand(given, outer);
    const shown = shownEnum(field);
    const property: ManifestProperty = { type: shown.type as ParameterItems["type"] };
    const description = describedWithNotes(field, "property", required.has(name));
    if (description !== undefined) property.description = description;
    if (shown.enum !== undefined) property.enum = shown.enum;
    if ("items" in field && field.items !== undefined) property.items = itemsOf(field.items, at);
    if ("properties" in field && field.properties !== undefined) {
      property.properties = propertiesOf(field, at);
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
 * enums as they are, a `const` as an enum of its one value; a reference (recursion) as an object. `value` maps a default the same way.
 */
function shownEnum(schema: Schema): {
  type: string;
  enum?: EnumValue[];
  value: (value: unknown) => unknown;
} {
  const type = "type" in schema && schema.type !== undefined ? schema.type : "object";
  const listed = "enum" in schema ? (schema.enum as readonly EnumValue[] | undefined) : undefined;
  // A `const` is an enum of one value: the dialect's field for allowed values shows it.
  const only = "const" in schema ? (schema.const as EnumValue | undefined) : undefined;
  const values = listed ?? (only !== undefined ? [only] : undefined);
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
