import { type JsonSchema, jsonSchemaOf } from "../schema/projections/json-schema.js";
import type { ObjectTypeSchema } from "../schema/schema.js";
import type { ParameterItems, ParameterSchema, ToolManifest } from "../wire/manifest.js";

export type { JsonSchema } from "../schema/projections/json-schema.js";

/** The JSON Schema of a tool's result, which MCP requires to describe an object. */
export type OutputSchema = JsonSchema & { type: "object" };

/** A tool as `tools/list` lists it. */
export interface McpToolEntry {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema & { type: "object" };
  outputSchema?: OutputSchema;
}

/** The JSON Schema of an array element (or of an object element's property). */
function itemsSchema(items: ParameterItems & { description?: string }): JsonSchema {
  const schema: JsonSchema = { type: items.type };
  if (items.description !== undefined) schema.description = items.description;
  if (items.enum !== undefined) schema.enum = [...items.enum];
  if (items.items !== undefined) schema.items = itemsSchema(items.items);
  if (items.properties !== undefined) schema.properties = propertiesSchema(items.properties);
  if (items.required !== undefined) schema.required = [...items.required];
  return schema;
}

function propertiesSchema(properties: Record<string, ParameterItems & { description?: string }>): JsonSchema {
  return Object.fromEntries(Object.entries(properties).map(([name, item]) => [name, itemsSchema(item)]));
}

const COPIED_FIELDS = ["description", "default", "minimum", "maximum", "minLength", "maxLength"] as const;

/** The JSON Schema of one manifest parameter. */
export function parameterSchema(parameter: ParameterSchema): JsonSchema {
  const schema: JsonSchema = { type: parameter.type };
  for (const field of COPIED_FIELDS) {
    if (parameter[field] !== undefined) schema[field] = parameter[field];
  }
  if (parameter.enum !== undefined) schema.enum = [...parameter.enum];
  if (parameter.items !== undefined) schema.items = itemsSchema(parameter.items);
  else if (parameter.items_type !== undefined) schema.items = { type: parameter.items_type };
  if (parameter.properties !== undefined) schema.properties = propertiesSchema(parameter.properties);
  return schema;
}

/**
 * A tool's `inputSchema`: an object whose properties are its parameters, `required`
 * listing those the manifest does not mark `required: false` (the wire's default is true).
 */
export function toolInputSchema(tool: ToolManifest): McpToolEntry["inputSchema"] {
  const parameters = tool.parameters ?? [];
  const schema: McpToolEntry["inputSchema"] = {
    type: "object",
    properties: Object.fromEntries(parameters.map((p) => [p.name, parameterSchema(p)])),
  };
  const required = parameters.filter((p) => p.required !== false).map((p) => p.name);
  if (required.length > 0) schema.required = required;
  return schema;
}

/** What a tool's MCP schemas are made from, beside its manifest entry. */
export interface ToolSchemas {
  /** The tool's input schema value: `inputSchema` is its projection; absent, it is made from the manifest. */
  input?: ObjectTypeSchema;
  /** The result's JSON Schema. */
  output?: OutputSchema;
}

/**
 * A tool as `tools/list` lists it; `title` (from a `display_name` the tool carries) and
 * `outputSchema` only when the revision has titles and structured content (2025-06-18 on).
 */
export function toolEntry(tool: ToolManifest, structured: boolean, schemas: ToolSchemas = {}): McpToolEntry {
  const { input, output: outputSchema } = schemas;
  const entry: McpToolEntry = {
    name: tool.name,
    description: tool.description,
    inputSchema: input ? (jsonSchemaOf(input) as McpToolEntry["inputSchema"]) : toolInputSchema(tool),
  };
  const displayName = (tool as { display_name?: unknown }).display_name;
  if (structured && typeof displayName === "string" && displayName !== "") entry.title = displayName;
  if (structured && outputSchema) entry.outputSchema = outputSchema;
  return entry;
}
