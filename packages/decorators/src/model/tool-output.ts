import type { ObjectTypeSchema, Schema } from "@executa/core";
import {
  codecOfTypeName,
  isInResultOf,
  isNullable,
  resultPath,
  sourceInfoOf,
  withoutNull,
} from "@executa/core/internal";
import { DefinitionError } from "../errors/definition-error.js";
import { formatClassNames, type UnsupportedType } from "./unsupported-type.js";

/**
 * The schema of a tool's result (projected to MCP `outputSchema`), from its method's return type
 * as the build-time source reader recorded it (its schema, with defaults left out: a result
 * has no defaults): a promise unwrapped, display blocks
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
  const { returns, loose } = checkResultCarried(target, className, methodName);
  if (returns === undefined || isNullable(returns)) return undefined;
  if (loose.replaced.has("")) return undefined;
  if ("type" in returns && returns.type === "object") return schemaOf(returns, "", loose) as ObjectTypeSchema;
  if (!("anyOf" in returns) || returns.anyOf === undefined || !returns.anyOf.every(isObjectSchema))
    return undefined;
  // A union of objects as the whole result: MCP wants `type: "object"` at the top.
  return { type: "object", ...schemaOf(returns, "", loose) } as ObjectTypeSchema;
}

/**
 * Throws `UNSUPPORTED_TYPE` when the method's result holds a type whose values do not
 * survive JSON (see {@link toolOutputSchema}), without building the result's schema: a
 * plugin fails at start-up for it, while the schema waits until MCP asks for it.
 */
export function checkResultCarried(
  target: Function,
  className: string,
  methodName: string,
): { returns: Schema | undefined; loose: Loose } {
  const info = sourceInfoOf(target);
  const returns = info?.methods?.[methodName]?.returns;
  const { loose, inside } = looseOf(info?.unsupported ?? [], methodName, returns);
  const lossy = inside.find((entry) => entry.lossy);
  if (lossy) throw lossyResultError(className, resultPath(methodName), lossy);
  return { returns, loose };
}

/**
 * The result's members the reader found without a faithful form: a registered codec's type
 * stands as its string there, any other as any value (`inside`, which may be lossy).
 */
function looseOf(
  unsupported: readonly UnsupportedType[],
  methodName: string,
  returns: Schema | undefined,
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
function describedUnion(returns: Schema, path: string, paths: readonly string[]): boolean {
  const at = schemaAt(returns, path);
  if (at === undefined || !isUnion(at)) return false;
  return !paths.some(
    (other) => other !== path && (other.startsWith(`${path}.`) || other.startsWith(`${path}[`)),
  );
}

/** The recorded schema at `path` (`.field`, `[]`, chained) below `schema`, through unions with `null`. */
function schemaAt(schema: Schema, path: string): Schema | undefined {
  let node: Schema | undefined = schema;
  for (const step of path.match(/\.[^.[]+|\[\]/g) ?? []) {
    const value: Schema | undefined = node && withoutNull(node);
    if (value === undefined || !("type" in value)) return undefined;
    if (step === "[]") node = value.type === "array" ? value.items : undefined;
    else node = value.type === "object" ? value.properties?.[step.slice(1)] : undefined;
  }
  return node;
}

/** Whether `schema` is a union of different types (not only a type or `null`). */
function isUnion(schema: Schema): boolean {
  return "anyOf" in withoutNull(schema);
}

function isObjectSchema(schema: Schema): boolean {
  return "type" in schema && schema.type === "object";
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
 * A recorded source schema as what a value of that type serializes to: its types, enums,
 * formats, bounds, items and properties (descriptions of properties kept; defaults and
 * classes left out). `loose` maps the paths (`.field`, `[]`, chained, from the result) the
 * reader recorded only as reflection would to what stands there: a codec's string, else
 * any value (`{}`), keeping their description; a property the reader left out there (of a
 * type the analysis does not load) is put back, optional.
 */
function schemaOf(schema: Schema, path: string, loose: Loose): Schema {
  if ("anyOf" in schema && schema.anyOf !== undefined)
    return { anyOf: schema.anyOf.map((member) => schemaOf(member, path, loose)) };
  if (!("type" in schema) || schema.type === undefined) return {};
  switch (schema.type) {
    case "array":
      return { type: "array", ...(schema.items && { items: fieldAt(schema.items, `${path}[]`, loose) }) };
    case "object":
      return objectOf(schema, path, loose);
    case "null":
      return { type: "null" };
    default:
      return leafOf(schema);
  }
}

/** A string, number or boolean schema's type, enum (with names), format and bounds. */
function leafOf(schema: Schema & { readonly type: string }): Schema {
  const facets = schema as Partial<Record<"enum" | "enumNames" | "format" | "minimum" | "maximum", unknown>>;
  return {
    type: schema.type,
    ...(facets.enum !== undefined && { enum: facets.enum }),
    ...(facets.enumNames !== undefined && { enumNames: facets.enumNames }),
    ...(facets.format !== undefined && { format: facets.format }),
    ...(facets.minimum !== undefined && { minimum: facets.minimum }),
    ...(facets.maximum !== undefined && { maximum: facets.maximum }),
  } as Schema;
}

function objectOf(schema: ObjectTypeSchema, path: string, loose: Loose): ObjectTypeSchema {
  const { properties } = schema;
  const missing = looseChildren(path, loose);
  if (properties === undefined && missing.length === 0) return { type: "object" };
  const entries = Object.entries(properties ?? {});
  const schemas: Record<string, Schema> = {};
  for (const [name, field] of entries) schemas[name] = propertySchema(field, `${path}.${name}`, loose);
  for (const name of missing) schemas[name] ??= loose.replaced.get(`${path}.${name}`) ?? {};
  const required = [...(schema.required ?? [])];
  for (const name of missing)
    if (loose.present.has(`${path}.${name}`) && !properties?.[name]) required.push(name);
  return { type: "object", properties: schemas, ...(required.length > 0 && { required }) };
}

function propertySchema(property: Schema, path: string, loose: Loose): Schema {
  const description = property.description ? { description: property.description } : {};
  return { ...fieldAt(property, path, loose), ...description };
}

function fieldAt(schema: Schema, path: string, loose: Loose): Schema {
  return loose.replaced.get(path) ?? schemaOf(schema, path, loose);
}

/** The names of properties directly below `path` that are loose (`path.name`). */
function looseChildren(path: string, loose: Loose): string[] {
  return [...loose.replaced.keys()]
    .filter((entry) => entry.startsWith(`${path}.`) && !/[.[]/.test(entry.slice(path.length + 1)))
    .map((entry) => entry.slice(path.length + 1));
}
