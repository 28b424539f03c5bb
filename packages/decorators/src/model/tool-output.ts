import {
  isInResultOf,
  type ObjectTypeSchema,
  resultPath,
  type Schema,
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
  const inside = (info?.unsupported ?? []).filter(
    (entry) => entry.index === undefined && isInResultOf(entry.member, methodName),
  );
  const lossy = inside.find((entry) => entry.lossy);
  if (lossy) throw lossyResultError(className, result, lossy);
  const returns = info?.methods?.[methodName]?.returns;
  if (returns?.type !== "object" || returns.nullable) return undefined;
  if (inside.some((entry) => entry.member === result)) return undefined;
  const loose = new Set(inside.map((entry) => entry.member.slice(result.length)));
  return schemaOf(returns, "", loose) as ObjectTypeSchema;
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

/**
 * A recorded source schema as the schema value: what a value of that type serializes to.
 * `loose` lists the paths (`.field`, `[]`, chained, from the result) the reader recorded
 * only as reflection would: those accept any value, keeping their description; a property
 * the reader left out there (of a type the analysis does not load) is put back, any value
 * and optional.
 */
function schemaOf(schema: SourceSchema, path: string, loose: ReadonlySet<string>): Schema {
  const value = typedSchema(schema, path, loose);
  return schema.nullable ? { anyOf: [value, { type: "null" }] } : value;
}

function typedSchema(schema: SourceSchema, path: string, loose: ReadonlySet<string>): Schema {
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

function objectOf(
  properties: SourceSchema["properties"],
  path: string,
  loose: ReadonlySet<string>,
): ObjectTypeSchema {
  const missing = looseChildren(path, loose);
  if (properties === undefined && missing.length === 0) return { type: "object" };
  const entries = Object.entries(properties ?? {});
  const schemas: Record<string, Schema> = {};
  for (const [name, field] of entries) schemas[name] = propertySchema(field, `${path}.${name}`, loose);
  for (const name of missing) schemas[name] ??= {};
  const required = entries.filter(([, field]) => !field.optional).map(([name]) => name);
  return { type: "object", properties: schemas, ...(required.length > 0 && { required }) };
}

function propertySchema(field: SourceField, path: string, loose: ReadonlySet<string>): Schema {
  const description = field.description ? { description: field.description } : {};
  return { ...fieldAt(field.schema, path, loose), ...description };
}

function fieldAt(schema: SourceSchema, path: string, loose: ReadonlySet<string>): Schema {
  return loose.has(path) ? {} : schemaOf(schema, path, loose);
}

/** The names of properties directly below `path` that are loose (`path.name`). */
function looseChildren(path: string, loose: ReadonlySet<string>): string[] {
  return [...loose]
    .filter((entry) => entry.startsWith(`${path}.`) && !/[.[]/.test(entry.slice(path.length + 1)))
    .map((entry) => entry.slice(path.length + 1));
}
