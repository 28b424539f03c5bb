import type { ObjectTypeSchema, Schema, SchemaTarget } from "@executa/core";
import type { ResolvedArgument } from "./types.js";

/**
 * The schema value of an object whose properties are `args` (a tool's input, a DTO class,
 * its class given as `target`): `required` listing the required ones, unknown keys refused
 * (as binding refuses them) at every depth.
 *
 * A DTO that contains itself (`children?: CategoryNode[]`) is read with its class's own
 * occurrences inside it left unexpanded (an object with its `target` and no properties);
 * such a class is written once, as `#/$defs/<class name>`, and referred to by `$ref`
 * wherever it occurs, its first occurrence included.
 */
export function argumentsSchema(args: readonly ResolvedArgument[], target?: Function): ObjectTypeSchema {
  const schema = objectSchema(args, target);
  const recurring = new Set<Function>();
  findRecurring(schema, new Set(), recurring);
  if (recurring.size === 0) return schema;
  const defs = new Definitions(recurring);
  // The input is a recurring class itself: its entry is written from it.
  if (target && recurring.has(target)) defs.refer(schema);
  const written = defs.inner(schema) as ObjectTypeSchema;
  return { ...written, $defs: defs.entries() };
}

/** The object of `args`, each with its own schema, unknown keys refused. */
export function objectSchema(args: readonly ResolvedArgument[], target?: Function): ObjectTypeSchema {
  const properties: Record<string, Schema> = {};
  for (const argument of args) properties[argument.name] = argument.schema;
  const required = args.filter((argument) => argument.required).map((argument) => argument.name);
  return {
    type: "object",
    properties,
    ...(required.length > 0 && { required }),
    additionalProperties: false,
    ...(target && { target: target as SchemaTarget }),
  };
}

/** An object of a class, left unexpanded inside a value of that class. */
function isRecursionPoint(schema: Schema): schema is ObjectTypeSchema & { target: SchemaTarget } {
  return "type" in schema && schema.type === "object" && schema.target !== undefined && !schema.properties;
}

/** Adds to `recurring` every class met unexpanded inside a value of itself (`open`: the classes around). */
function findRecurring(schema: Schema, open: ReadonlySet<Function>, recurring: Set<Function>): void {
  if (!("type" in schema)) return;
  if (schema.type === "array" && schema.items) findRecurring(schema.items, open, recurring);
  if (schema.type !== "object" || !schema.target) return;
  if (!schema.properties) {
    if (open.has(schema.target)) recurring.add(schema.target);
    return;
  }
  const inner = new Set(open).add(schema.target);
  for (const field of Object.values(schema.properties)) findRecurring(field, inner, recurring);
}

/** The `$defs` entries of the recurring classes, written as they are first met. */
class Definitions {
  private readonly names = new Map<Function, string>();
  private readonly schemas: Record<string, Schema> = {};

  constructor(private readonly recurring: ReadonlySet<Function>) {}

  entries(): Readonly<Record<string, Schema>> {
    return this.schemas;
  }

  /** `schema` with every value of a recurring class a reference (keeping the annotations of where it sits). */
  value(schema: Schema): Schema {
    if (!("type" in schema)) return schema;
    if (schema.type === "object" && schema.target && this.recurring.has(schema.target)) {
      const { description, default: _default, title } = schema;
      return {
        $ref: this.refer(schema),
        ...(description !== undefined && { description }),
        ...(title !== undefined && { title }),
        ...("default" in schema && { default: schema.default }),
      };
    }
    return this.inner(schema);
  }

  /** `schema` itself kept, its elements or properties written by {@link value}. */
  inner(schema: Schema): Schema {
    if (!("type" in schema)) return schema;
    if (schema.type === "array" && schema.items) return { ...schema, items: this.value(schema.items) };
    if (schema.type !== "object" || !schema.properties) return schema;
    const properties: Record<string, Schema> = {};
    for (const [name, field] of Object.entries(schema.properties)) properties[name] = this.value(field);
    return { ...schema, properties };
  }

  /** The reference to a recurring class, its entry written from its first expanded occurrence. */
  refer(schema: ObjectTypeSchema & { target?: SchemaTarget }): `#/$defs/${string}` {
    const target = schema.target as Function;
    let name = this.names.get(target);
    if (name === undefined) {
      name = this.freeName(target.name || "Object");
      this.names.set(target, name);
    }
    if (!Object.hasOwn(this.schemas, name) && !isRecursionPoint(schema)) {
      const { description: _d, default: _default, title: _t, ...entry } = schema;
      this.schemas[name] = {};
      this.schemas[name] = this.inner(entry as Schema);
    }
    return `#/$defs/${name}`;
  }

  private freeName(base: string): string {
    let name = base;
    for (let n = 2; [...this.names.values()].includes(name); n++) name = `${base}${n}`;
    return name;
  }
}
