import type { ObjectTypeSchema, Schema } from "@executa/core";
import {
  codecOfTypeName,
  isInResultOf,
  resultPath,
  type SourceField,
  type SourceSchema,
  sourceInfoOf,
} from "@executa/core/internal";
import { DefinitionError } from "../errors/definition-error.js";
import { formatClassNames, type UnsupportedType } from "./unsupported-type.js";

/**
 * The schema of a tool's result (projected to MCP `outputSchema`), from its method's return type
 * as the build-time source reader recorded it: a promise unwrapped, display blocks
 * (`withDisplay`) left out. Only an object result has one (MCP describes objects only; a
 * string, array or `Foo | null` result has none). Undefined without recorded facts.
 *
 * A type inside the result that JSON carries but the reader does not describe (`unknown`,
 * a union of different types, a tuple) is left unconstrained (`{}`); as the whole result
 * it leaves the tool without a schema. Never a schema that rejects what the tool returns.
 *
 * Throws `UNSUPPORTED_TYPE` when the result holds a type whose values do not survive JSON
 * as themselves (a function, a `bigint`, a `symbol`, a `Map`): what the client would get
 * is not what the type says.
 */
export function toolOutputSchema(
  target: Function,
  className: string,
  methodName: string,
): ObjectTypeSchema | undefined {
  const info = sourceInfoOf(target);
  const result = resultPath(methodName);
  const returns = info?.methods?.[methodName]?.returns;
  const { loose, inside } = looseOf(info?.unsupported ?? [], methodName, returns);
  const lossy = inside.find((entry) => entry.lossy);
  if (lossy) throw lossyResultError(className, result, lossy);
  if (returns?.type !== "object" || returns.nullable) return undefined;
  if (loose.replaced.has("")) return undefined;
  if (returns.anyOf === undefined) return schemaOf(returns, "", loose) as ObjectTypeSchema;
  if (!returns.anyOf.every(isObjectSchema)) return undefined;
  // A union of objects as the whole result: MCP wants `type: "object"` at the top.
  return { type: "object", ...schemaOf(returns, "", loose) } as ObjectTypeSchema;
}

/**
 * The result's members the reader found without a faithful form: a registered codec's type
 * stands as its string there, any other as any value (`inside`, which may be lossy).
 */
function looseOf(
  unsupported: readonly UnsupportedType[],
  methodName: string,
  returns: SourceSchema | undefined,
): { loose: Loose; inside: UnsupportedType[] } {
  const result = resultPath(methodName);
  const replaced = new Map<string, Schema>();
  // Codec-typed properties the reader left out that are not optional: required when put back.
  const present = new Set<string>();
  const inside: UnsupportedType[] = [];
  for (const entry of unsupported) {
    if (entry.index !== undefined || !isInResultOf(entry.member, methodName)) continue;
    const path = entry.member.slice(result.length);
    const codec = codecOfTypeName(entry.type.replace(/\s*\|\s*undefined$/, ""));
    if (!codec) {
      inside.push(entry);
      continue;
    }
    replaced.set(path, { type: "string", format: codec.name });
    if (!entry.type.endsWith("undefined")) present.add(path);
  }
  const paths = inside.map((entry) => entry.member.slice(result.length));
  for (const path of paths) {
    if (returns === undefined || !describedUnion(returns, path, paths)) replaced.set(path, {});
  }
  return { loose: { replaced, present }, inside };
}

/**
 * Whether the union at `path` is shown as its members (`anyOf`): the reader described
 * every member, and nothing inside them is noted (a member's schema could then reject
 * what the tool returns).
 */
function describedUnion(returns: SourceSchema, path: string, paths: readonly string[]): boolean {
  if (schemaAt(returns, path)?.anyOf === undefined) return false;
  return !paths.some(
    (other) => other !== path && (other.startsWith(`${path}.`) || other.startsWith(`${path}[`)),
  );
}

/** The recorded schema at `path` (`.field`, `[]`, chained) below `schema`. */
function schemaAt(schema: SourceSchema, path: string): SourceSchema | undefined {
  let node: SourceSchema | undefined = schema;
  for (const step of path.match(/\.[^.[]+|\[\]/g) ?? []) {
    node = step === "[]" ? node?.items : node?.properties?.[step.slice(1)]?.schema;
  }
  return node;
}

function isObjectSchema(schema: SourceSchema): boolean {
  return schema.type === "object" && schema.anyOf === undefined && !schema.nullable;
}

function lossyResultError(className: string, resultPath: string, lossy: UnsupportedType): DefinitionError {
  const nested = lossy.member === resultPath ? "" : ` (at ${lossy.member})`;
  return new DefinitionError(
    "UNSUPPORTED_TYPE",
    className,
    resultPath,
    `the result's TypeScript type \`${lossy.type}\`${nested} does not survive JSON: ${lossy.reason}`,
    `return plain data: strings, numbers, booleans, ${formatClassNames()}, arrays and objects of those ` +
      "(convert a bigint to a string, a Map to an object or an array of entries; leave functions out)",
  );
}

/** What stands at the paths the reader recorded only as reflection would, and which of those are always present. */
interface Loose {
  replaced: ReadonlyMap<string, Schema>;
  present: ReadonlySet<string>;
}

/**
 * A recorded source schema as the schema value: what a value of that type serializes to.
 * `loose` maps the paths (`.field`, `[]`, chained, from the result) the reader recorded
 * only as reflection would to what stands there: a codec's string, else any value (`{}`),
 * keeping their description; a property the reader left out there (of a type the analysis
 * does not load) is put back, optional.
 */
function schemaOf(schema: SourceSchema, path: string, loose: Loose): Schema {
  const value = typedSchema(schema, path, loose);
  if (!schema.nullable) return value;
  const members = "anyOf" in value && value.anyOf !== undefined ? value.anyOf : [value];
  return { anyOf: [...members, { type: "null" }] };
}

function typedSchema(schema: SourceSchema, path: string, loose: Loose): Schema {
  if (schema.anyOf !== undefined)
    return { anyOf: schema.anyOf.map((member) => schemaOf(member, path, loose)) };
  const facets = {
    ...(schema.enum !== undefined && { enum: schema.enum as never[] }),
    ...(schema.enumNames !== undefined && { enumNames: schema.enumNames }),
    ...(schema.format !== undefined && { format: schema.format }),
    ...(schema.minimum !== undefined && { minimum: schema.minimum }),
    ...(schema.maximum !== undefined && { maximum: schema.maximum }),
  };
  switch (schema.type) {
    case "array":
      return { type: "array", ...(schema.items && { items: fieldAt(schema.items, `${path}[]`, loose) }) };
    case "object":
      return objectOf(schema.properties, path, loose);
    default:
      return { type: schema.type, ...facets } as Schema;
  }
}

function objectOf(properties: SourceSchema["properties"], path: string, loose: Loose): ObjectTypeSchema {
  const missing = looseChildren(path, loose);
  if (properties === undefined && missing.length === 0) return { type: "object" };
  const entries = Object.entries(properties ?? {});
  const schemas: Record<string, Schema> = {};
  for (const [name, field] of entries) schemas[name] = propertySchema(field, `${path}.${name}`, loose);
  for (const name of missing) schemas[name] ??= loose.replaced.get(`${path}.${name}`) ?? {};
  const required = entries.filter(([, field]) => !field.optional).map(([name]) => name);
  for (const name of missing)
    if (loose.present.has(`${path}.${name}`) && !properties?.[name]) required.push(name);
  return { type: "object", properties: schemas, ...(required.length > 0 && { required }) };
}

function propertySchema(field: SourceField, path: string, loose: Loose): Schema {
  const description = field.description ? { description: field.description } : {};
  return { ...fieldAt(field.schema, path, loose), ...description };
}

function fieldAt(schema: SourceSchema, path: string, loose: Loose): Schema {
  return loose.replaced.get(path) ?? schemaOf(schema, path, loose);
}

/** The names of properties directly below `path` that are loose (`path.name`). */
function looseChildren(path: string, loose: Loose): string[] {
  return [...loose.replaced.keys()]
    .filter((entry) => entry.startsWith(`${path}.`) && !/[.[]/.test(entry.slice(path.length + 1)))
    .map((entry) => entry.slice(path.length + 1));
}
