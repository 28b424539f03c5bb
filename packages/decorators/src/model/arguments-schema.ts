import { type ObjectTypeSchema, PARAMETER_TYPES, type Schema, type SchemaTarget } from "@executa/core";
import type { ArgumentSchema, ItemSchema } from "./types.js";

/**
 * The schema value of an object whose properties are `args` (a tool's input, a DTO class):
 * `required` listing the required ones, unknown keys refused (as binding refuses them) at
 * every depth. A nested DTO carries its class as `target`. A DTO that contains itself
 * (`children?: CategoryNode[]`) is written once, as `#/$defs/<class name>`, and referred
 * to by `$ref` wherever it occurs, its first occurrence included.
 */
export function argumentsSchema(args: readonly ArgumentSchema[], dto?: Function): ObjectTypeSchema {
  // The first pass finds the classes that recur (a value of the class inside one of it);
  // the second writes each of them once, in `$defs`.
  const found = new Writer(new Set());
  found.object(args, dto);
  if (found.recurring.size === 0) return found.object(args, dto);
  const writer = new Writer(found.recurring);
  const schema = writer.object(args, dto);
  return { ...schema, $defs: writer.definitions() };
}

/** Writes schema values of arguments, knowing which DTO classes recur. */
class Writer {
  /** The classes met inside a value of themselves. */
  readonly recurring = new Set<Function>();
  /** The fields of the DTO classes being written, outermost first: where a recurring class's fields are found. */
  private readonly open = new Map<Function, readonly ArgumentSchema[]>();
  private readonly names = new Map<Function, string>();
  private readonly defs: Record<string, Schema> = {};

  constructor(private readonly known: ReadonlySet<Function>) {}

  definitions(): Readonly<Record<string, Schema>> {
    return this.defs;
  }

  object(fields: readonly ArgumentSchema[], dto: Function | undefined): ObjectTypeSchema {
    if (dto) this.open.set(dto, fields);
    const properties: Record<string, Schema> = {};
    for (const field of fields) properties[field.name] = this.field(field);
    if (dto) this.open.delete(dto);
    const required = fields.filter((field) => field.required).map((field) => field.name);
    return {
      type: "object",
      properties,
      ...(required.length > 0 && { required }),
      additionalProperties: false,
      ...(dto && { target: dto as SchemaTarget }),
    };
  }

  private field(field: ArgumentSchema): Schema {
    return {
      ...this.value(field),
      ...(field.description !== undefined && { description: field.description }),
      ...(field.hasDefault && { default: field.default }),
    };
  }

  /**
   * The schema of one value (an argument's or an array element's): its type's own schema
   * (each parameter-type module declares it), with the facets the declaration adds.
   */
  private value(value: ArgumentSchema | ItemSchema): Schema {
    if (value.type === "object") return this.objectValue(value);
    const facets = {
      ...(value.type === "array" && { items: this.value(value.items ?? { type: "string" }) }),
      ...(value.enum !== undefined && { enum: value.enum }),
      ...(value.enumNames !== undefined && { enumNames: value.enumNames }),
      ...("minLength" in value && value.minLength !== undefined && { minLength: value.minLength }),
      ...("maxLength" in value && value.maxLength !== undefined && { maxLength: value.maxLength }),
      ...(value.format !== undefined && { format: value.format }),
      ...(value.minimum !== undefined && { minimum: value.minimum }),
      ...(value.maximum !== undefined && { maximum: value.maximum }),
    };
    return { ...PARAMETER_TYPES[value.type].schema, ...facets } as Schema;
  }

  /** An object of known fields, a reference where a DTO recurs, or any object. */
  private objectValue(value: ArgumentSchema | ItemSchema): Schema {
    const { dto } = value;
    const recursion = dto !== undefined && value.fields === undefined ? this.open.get(dto) : undefined;
    if (recursion) this.recurring.add(dto as Function);
    const fields = value.fields ?? recursion;
    if (dto && fields && this.known.has(dto)) return this.refer(dto, fields);
    // Not expanded at a recursion point before the recurring classes are known (the first pass).
    if (fields !== undefined && !recursion) return this.object(fields, dto);
    return { ...PARAMETER_TYPES.object.schema, ...(dto && { target: dto as SchemaTarget }) };
  }

  /** A reference to `dto`'s schema, written in `$defs` on first use. */
  private refer(dto: Function, fields: readonly ArgumentSchema[]): Schema {
    let name = this.names.get(dto);
    if (name === undefined) {
      name = this.freeName(dto.name || "Object");
      this.names.set(dto, name);
      this.defs[name] = this.object(fields, dto);
    }
    return { $ref: `#/$defs/${name}` };
  }

  private freeName(base: string): string {
    let name = base;
    for (let n = 2; Object.hasOwn(this.defs, name) || [...this.names.values()].includes(name); n++)
      name = `${base}${n}`;
    return name;
  }
}
