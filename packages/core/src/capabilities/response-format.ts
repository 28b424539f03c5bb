/**
 * Structured output for `sampling/createMessage`: the `responseFormat` and `onUnsupported`
 * params, the host's hard limits on a JSON schema (checked here before anything is sent),
 * and the host's report of what it did (`_meta.responseFormat`).
 */
import { isObject } from "../manifest/manifest-issues.js";
import { SamplingErrorCode } from "../wire/error-codes.js";
import { SamplingError } from "./sampling-error.js";

/** The `json_schema` block of a strict structured-output request. */
export interface JsonSchemaSpec {
  /** `^[a-zA-Z0-9_-]{1,64}$`. */
  name: string;
  /** The host treats an absent value as `true`. */
  strict?: boolean;
  /** A JSON Schema: at most 32 KB serialized, nested at most 8 levels deep, at most 512 nodes. */
  schema: Record<string, unknown>;
}

/** JSON mode (L1, broadly supported). */
export interface JsonObjectResponseFormat {
  type: "json_object";
}

/** A strict JSON schema (L2; the selected model must support it). */
export interface JsonSchemaResponseFormat {
  type: "json_schema";
  json_schema: JsonSchemaSpec;
}

/** Structured output: JSON mode, or a strict JSON schema (needs model support). */
export type ResponseFormat = JsonObjectResponseFormat | JsonSchemaResponseFormat;

/** The values `ResponseFormat["type"]` takes. */
export const RESPONSE_FORMAT_TYPES: readonly ResponseFormat["type"][] = ["json_object", "json_schema"];

/**
 * What the host does when the selected model cannot honour `responseFormat`: fail with
 * -32010 (`"error"`, the host's default), fall back to JSON mode, or drop the constraint.
 */
export type OnUnsupported = "error" | "json_object" | "text";

/** The values {@link OnUnsupported} takes. */
export const ON_UNSUPPORTED_VALUES: readonly OnUnsupported[] = ["error", "json_object", "text"];

/** The host's hard limits on a `json_schema` response format. */
export const RESPONSE_FORMAT_LIMITS = Object.freeze({
  /** Serialized schema size, bytes (UTF-8). */
  maxSchemaBytes: 32 * 1024,
  /** Nesting depth in subschemas (the root schema is depth 1; `properties.x` of it is depth 2). */
  maxSchemaDepth: 8,
  /** Subschemas, the root included. */
  maxSchemaNodes: 512,
  /** The `json_schema.name` pattern. */
  namePattern: /^[a-zA-Z0-9_-]{1,64}$/,
});

/**
 * The host's report in `_meta.responseFormat` of a sampling result: whether the answer
 * matched the schema (informational: parse and check it yourself) and whether the host
 * downgraded the request because the model lacked support (`onUnsupported`).
 */
export interface ResponseFormatReport {
  /** Whether the host found `content.text` valid against the schema. */
  structuredValid?: boolean;
  /** True when the host applied `onUnsupported` instead of the requested format. */
  downgraded?: boolean;
  [key: string]: unknown;
}

/**
 * The instruction that carries a response format in the request's text, for a model the
 * format cannot bind (an MCP client, a host that downgraded it): answer JSON only, and for
 * a schema, the schema itself.
 */
export function responseFormatInstruction(format: ResponseFormat): string {
  if (format.type === "json_object")
    return "Answer with a single JSON object and nothing else: no prose, no code fence.";
  return (
    "Answer with a single JSON value that validates against this JSON Schema, and nothing else: " +
    `no prose, no code fence.\nJSON Schema (${format.json_schema.name}):\n${JSON.stringify(format.json_schema.schema)}`
  );
}

/**
 * Throws a {@link SamplingError} (-32004 INVALID_REQUEST) unless `format` is a response
 * format the host accepts: the right shape, a valid name, and a schema within
 * {@link RESPONSE_FORMAT_LIMITS}. Saves a round trip to a host that would refuse it.
 */
export function checkResponseFormat(method: string, format: unknown): void {
  const fail = (problem: string, data: Record<string, unknown> = {}) =>
    new SamplingError(SamplingErrorCode.INVALID_REQUEST, `${method}: responseFormat ${problem}`, {
      reason: "invalid_response_format",
      ...data,
    });
  if (typeof format !== "object" || format === null) throw fail("must be an object");
  const { type } = format as { type?: unknown };
  if (!RESPONSE_FORMAT_TYPES.includes(type as ResponseFormat["type"])) {
    const types = RESPONSE_FORMAT_TYPES.map((name) => `"${name}"`).join(" or ");
    throw fail(`.type must be ${types}, got ${String(type)}`);
  }
  if (type === "json_object") return;
  const spec = (format as { json_schema?: unknown }).json_schema;
  if (typeof spec !== "object" || spec === null) throw fail(".json_schema must be { name, strict?, schema }");
  const { name, strict, schema } = spec as Record<string, unknown>;
  if (typeof name !== "string" || !RESPONSE_FORMAT_LIMITS.namePattern.test(name)) {
    throw fail(
      `.json_schema.name must match ${RESPONSE_FORMAT_LIMITS.namePattern}, got ${JSON.stringify(name)}`,
    );
  }
  if (strict !== undefined && typeof strict !== "boolean")
    throw fail(".json_schema.strict must be a boolean");
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw fail(".json_schema.schema must be a JSON Schema object");
  }
  const problem = schemaLimitProblem(schema as Record<string, unknown>);
  if (problem) throw fail(`.json_schema.schema ${problem.message}`, problem.data);
}

/** Which of the host's schema limits `schema` breaks, if any. */
export function schemaLimitProblem(
  schema: Record<string, unknown>,
): { message: string; data: Record<string, unknown> } | undefined {
  const limits = RESPONSE_FORMAT_LIMITS;
  const bytes = Buffer.byteLength(JSON.stringify(schema), "utf8");
  if (bytes > limits.maxSchemaBytes) {
    return {
      message: `is ${bytes} bytes serialized; the host allows at most ${limits.maxSchemaBytes}`,
      data: { limit: "bytes", actual: bytes, max: limits.maxSchemaBytes },
    };
  }
  const { depth, nodes } = measure(schema);
  if (depth > limits.maxSchemaDepth) {
    return {
      message: `nests ${depth} levels deep; the host allows at most ${limits.maxSchemaDepth}`,
      data: { limit: "depth", actual: depth, max: limits.maxSchemaDepth },
    };
  }
  if (nodes > limits.maxSchemaNodes) {
    return {
      message: `has ${nodes} nodes; the host allows at most ${limits.maxSchemaNodes}`,
      data: { limit: "nodes", actual: nodes, max: limits.maxSchemaNodes },
    };
  }
  return undefined;
}

/** Keywords whose value is a map of name → subschema. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
/** Keywords whose value is one subschema. */
const SCHEMA_SINGLES = new Set([
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
]);

/**
 * Depth and node count of a JSON Schema, counted in subschemas: the root is one node at
 * depth 1, and each subschema (under `properties`, `items`, `anyOf`, …) is one node one
 * level deeper than the schema holding it.
 */
function measure(root: Record<string, unknown>): { depth: number; nodes: number } {
  let depth = 0;
  let nodes = 0;
  const stack: [Record<string, unknown>, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [schema, level] = stack.pop() as [Record<string, unknown>, number];
    nodes += 1;
    if (level > depth) depth = level;
    for (const child of subschemas(schema)) stack.push([child, level + 1]);
  }
  return { depth, nodes };
}

function subschemas(schema: Record<string, unknown>): Record<string, unknown>[] {
  const found: unknown[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(keyword) && isObject(value)) found.push(...Object.values(value));
    else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) found.push(...value);
    else if (SCHEMA_SINGLES.has(keyword)) found.push(...(Array.isArray(value) ? value : [value]));
  }
  return found.filter(isObject);
}

/** `_meta.responseFormat` of a sampling result, when the host sent one. */
export function responseFormatReport(meta: unknown): ResponseFormatReport | undefined {
  const report = isObject(meta) ? meta.responseFormat : undefined;
  return isObject(report) ? (report as ResponseFormatReport) : undefined;
}
