import type { JsonSchema, OutputSchema } from "@executa/core";
import {
  isInResultOf,
  resultPath,
  type SourceField,
  type SourceSchema,
  sourceInfoOf,
} from "@executa/core/internal";
import { DefinitionError } from "../errors/definition-error.js";
import { formatClassNames, type UnsupportedType } from "./unsupported-type.js";

/**
 * The JSON Schema of a tool's result (MCP `outputSchema`), from its method's return type
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
): OutputSchema | undefined {
  const info = sourceInfoOf(target);
  const result = resultPath(methodName);
  const inside = (info?.unsupported ?? []).filter(
    (entry) => entry.index === undefined && isInResultOf(entry.member, methodName),
  );
  const lossy = inside.find((entry) => entry.lossy);
  if (lossy) throw lossyResultError(className, result, lossy);
  const returns = info?.methods?.[methodName]?.returns;
  if (returns?.type !== "object" || returns.nullable) return undefined;
  const paths = inside.map((entry) => entry.member.slice(result.length));
  const described = paths.filter((path) => describedUnion(returns, path, paths));
  if (paths.includes("") && !(described.includes("") && returns.anyOf?.every(isObjectSchema)))
    return undefined;
  // A union of objects as the whole result: MCP wants `type: "object"` at the top.
  const schema = described.includes("")
    ? { type: "object", ...jsonSchemaOf(returns) }
    : jsonSchemaOf(returns);
  for (const path of paths) if (!described.includes(path)) unconstrain(schema, path);
  return schema as OutputSchema;
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

/** A recorded source schema as JSON Schema: what a value of that type serializes to. */
function jsonSchemaOf(schema: SourceSchema): JsonSchema {
  if (schema.anyOf !== undefined) {
    const members = schema.anyOf.map(jsonSchemaOf);
    return { anyOf: schema.nullable ? [...members, { type: "null" }] : members };
  }
  const json: JsonSchema = { type: schema.nullable ? [schema.type, "null"] : schema.type };
  if (schema.enum !== undefined) json.enum = schema.nullable ? [...schema.enum, null] : [...schema.enum];
  if (schema.format !== undefined) json.format = schema.format;
  if (schema.minimum !== undefined) json.minimum = schema.minimum;
  if (schema.maximum !== undefined) json.maximum = schema.maximum;
  if (schema.items !== undefined) json.items = jsonSchemaOf(schema.items);
  if (schema.properties !== undefined) {
    const entries = Object.entries(schema.properties);
    json.properties = Object.fromEntries(entries.map(([name, field]) => [name, fieldSchema(field)]));
    const required = entries.filter(([, field]) => !field.optional).map(([name]) => name);
    if (required.length > 0) json.required = required;
  }
  return json;
}

function fieldSchema(field: SourceField): JsonSchema {
  const json = jsonSchemaOf(field.schema);
  return field.description ? { ...json, description: field.description } : json;
}

/**
 * Makes the schema at `path` (`.field`, `[]` for elements, chained) accept any value,
 * keeping its description: the reader recorded only what reflection would say there. A
 * property the reader left out (its type is one the analysis does not load, e.g. Node's
 * `Buffer`) is put back unconstrained and optional: it is there, of a type not described.
 */
function unconstrain(schema: JsonSchema, path: string): void {
  const steps = path.match(/\.[^.[]+|\[\]/g) ?? [];
  let parent: Record<string, unknown> | undefined;
  let key: string | undefined;
  let node: JsonSchema | undefined = schema;
  for (const step of steps) {
    const slot: Slot | undefined = node && slotOf(node, step);
    if (!slot) return;
    [parent, key] = slot;
    node = parent[key] as JsonSchema | undefined;
  }
  if (!parent || key === undefined) return;
  if (node) parent[key] = typeof node.description === "string" ? { description: node.description } : {};
  else if (key !== "items") parent[key] = {};
}

/** Where a path step leads: the object holding the schema there, and its key. */
type Slot = [holder: Record<string, unknown>, key: string];

/** The slot of `step` (`.field` or `[]`) below `node`; undefined where `node` has no such place. */
function slotOf(node: JsonSchema, step: string): Slot | undefined {
  if (step === "[]") return [node, "items"];
  if (!describesObject(node)) return undefined;
  node.properties ??= {};
  return [node.properties as Record<string, unknown>, step.slice(1)];
}

function describesObject(schema: JsonSchema): boolean {
  return schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object"));
}
