import type { ObjectTypeSchema, Schema, SchemaTarget } from "@executa/core";
import { objectFields } from "../binding/dto-fields.js";
import type { ArgumentSchema, ItemSchema } from "./types.js";

/**
 * The schema value of an object whose properties are `args` (a tool's input, a DTO class):
 * `required` listing the required ones, unknown keys refused (as binding refuses them) at
 * every depth. A nested DTO carries its class as `target`; a DTO that contains itself
 * (`children?: CategoryNode[]`) is expanded once and referred to below that by
 * `#/$defs/<class name>`, whose entry holds the class's fields.
 */
export function argumentsSchema(args: readonly ArgumentSchema[]): ObjectTypeSchema {
  const defs = new Definitions();
  const schema = objectOf(args, undefined, defs);
  return defs.size === 0 ? schema : { ...schema, $defs: defs.entries() };
}

/** The named schemas of recursive DTOs, filled as references to them are met. */
class Definitions {
  private readonly names = new Map<Function, string>();
  private readonly schemas: Record<string, Schema> = {};

  get size(): number {
    return this.names.size;
  }

  /** A reference to `dto`'s fields, defining them on first use. */
  refer(dto: Function, fields: readonly ArgumentSchema[]): Schema {
    let name = this.names.get(dto);
    if (name === undefined) {
      name = this.freeName(dto.name || "Object");
      this.names.set(dto, name);
      this.schemas[name] = objectOf(fields, dto, this);
    }
    return { $ref: `#/$defs/${name}` };
  }

  entries(): Readonly<Record<string, Schema>> {
    return this.schemas;
  }

  private freeName(base: string): string {
    let name = base;
    for (let n = 2; Object.hasOwn(this.schemas, name) || [...this.names.values()].includes(name); n++)
      name = `${base}${n}`;
    return name;
  }
}

function objectOf(
  fields: readonly ArgumentSchema[],
  dto: Function | undefined,
  defs: Definitions,
): ObjectTypeSchema {
  const properties: Record<string, Schema> = {};
  for (const field of fields) properties[field.name] = fieldSchema(field, defs);
  const required = fields.filter((field) => field.required).map((field) => field.name);
  return {
    type: "object",
    properties,
    ...(required.length > 0 && { required }),
    additionalProperties: false,
    ...(dto && { target: dto as SchemaTarget }),
  };
}

function fieldSchema(field: ArgumentSchema, defs: Definitions): Schema {
  const schema = valueSchema(field, defs);
  return {
    ...schema,
    ...(field.description !== undefined && { description: field.description }),
    ...(field.hasDefault && { default: field.default }),
  };
}

/** The schema of one value: an argument's or an array element's. */
function valueSchema(value: ArgumentSchema | ItemSchema, defs: Definitions): Schema {
  switch (value.type) {
    case "string":
      return {
        type: "string",
        ...(value.enum !== undefined && { enum: value.enum as string[] }),
        ...("minLength" in value && value.minLength !== undefined && { minLength: value.minLength }),
        ...("maxLength" in value && value.maxLength !== undefined && { maxLength: value.maxLength }),
        ...(value.format !== undefined && { format: value.format }),
      };
    case "number":
    case "integer":
      return {
        type: value.type,
        ...(value.enum !== undefined && { enum: value.enum as number[] }),
        ...(value.enumNames !== undefined && { enumNames: value.enumNames }),
        ...(value.minimum !== undefined && { minimum: value.minimum }),
        ...(value.maximum !== undefined && { maximum: value.maximum }),
      };
    case "boolean":
      return { type: "boolean", ...(value.enum !== undefined && { enum: value.enum as boolean[] }) };
    case "array":
      return { type: "array", items: valueSchema(value.items ?? { type: "string" }, defs) };
    case "object":
      return objectValue(value, defs);
    default:
      // A parameter type added by its module alone (core's parameter-types): no fields of its own.
      return { type: (value as { type: string }).type } as Schema;
  }
}

/** An object of known fields, a reference where a DTO recurs, or any object. */
function objectValue(value: ArgumentSchema | ItemSchema, defs: Definitions): Schema {
  if (value.fields !== undefined) return objectOf(value.fields, value.dto, defs);
  const recurring = value.dto && objectFields(value);
  if (value.dto && recurring) return defs.refer(value.dto, recurring);
  return { type: "object" };
}
