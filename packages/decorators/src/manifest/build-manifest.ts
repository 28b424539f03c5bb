import {
  type Manifest,
  type ManifestIssue,
  type ParameterItems,
  type ParameterSchema,
  type ToolManifest,
  validateManifest,
} from "@executa/core";
import { DefinitionError } from "../errors/definition-error.js";
import type { ArgumentSchema, ItemSchema, PluginModel, ToolModel } from "../model/types.js";
import { parameterDescription, propertyDescription, shownEnum } from "./schema-notes.js";

/**
 * The manifest of a resolved plugin, with the fields the protocol names, in the spec's
 * order. Per parameter: `name`, `type`, `items` (arrays; always given, JSON Schema style),
 * `description`, `required` (always given), `default`, `enum`, then `minimum` / `maximum`
 * (numbers), `minLength` / `maxLength` (strings) and `properties` (objects of a known shape: nested DTOs, interfaces), which
 * the manifest type of `@executa/core` carries. What has no field (a date-time format,
 * bounds of elements and nested properties, optional nested properties) is said in the
 * description. Every fact is also enforced per invoke, so manifest and validation agree.
 *
 * The result is checked with `validateManifest` of `@executa/core`, the rules `executa
 * check` applies: the decorators' own checks should have caught every case first, so an
 * `error` here is a gap between the two, reported before a host ever sees the manifest.
 * @throws DefinitionError (`MANIFEST_INVALID`) naming the first broken field.
 */
export function buildManifest(model: PluginModel): Manifest {
  const manifest = manifestOfModel(model);
  const errors = validateManifest(manifest).filter((issue) => issue.severity === "error");
  if (errors.length > 0) throw invalidManifestError(model.className, errors);
  return manifest;
}

function invalidManifestError(className: string, errors: readonly ManifestIssue[]): DefinitionError {
  const [first] = errors;
  const more = errors.length > 1 ? ` (+${errors.length - 1} more)` : "";
  return new DefinitionError(
    "MANIFEST_INVALID",
    className,
    "",
    `the manifest breaks the protocol spec at ${first!.path || "the top"}: ${first!.message}${more}`,
    "change the decorator option that produces this field",
  );
}

function manifestOfModel(model: PluginModel): Manifest {
  const { info } = model;
  const manifest: Manifest = {
    name: info.name,
    ...(info.display_name !== undefined && { display_name: info.display_name }),
    version: info.version,
    description: info.description,
    ...(info.author !== undefined && { author: info.author }),
    ...(info.homepage !== undefined && { homepage: info.homepage }),
    ...(info.icon !== undefined && { icon: info.icon }),
    ...(info.category !== undefined && { category: info.category }),
    ...(info.license !== undefined && { license: info.license }),
    tools: model.tools.map(toolManifest),
  };
  if (info.credentials !== undefined)
    manifest.credentials = info.credentials.map((credential) => ({ ...credential }));
  if (info.runtime !== undefined) manifest.runtime = structuredClone(info.runtime);
  if (info.host_capabilities !== undefined) manifest.host_capabilities = [...info.host_capabilities];
  return manifest;
}

function toolManifest(tool: ToolModel): ToolManifest {
  const manifest: ToolManifest = { name: tool.name, description: tool.description };
  if (tool.timeout !== undefined) manifest.timeout = tool.timeout;
  if (tool.streaming !== undefined) manifest.streaming = tool.streaming;
  manifest.parameters = tool.arguments.map(parameterSchema);
  return manifest;
}

function parameterSchema(argument: ArgumentSchema): ParameterSchema {
  const shown = shownEnum(argument.type, argument);
  const schema: ParameterSchema = { name: argument.name, type: shown.type };
  if (argument.items !== undefined) schema.items = itemsSchema(argument.items);
  const description = parameterDescription(argument);
  if (description !== undefined) schema.description = description;
  schema.required = argument.required;
  if (argument.hasDefault) schema.default = structuredClone(shown.value(argument.default));
  if (shown.enum !== undefined) schema.enum = shown.enum;
  if (argument.minimum !== undefined) schema.minimum = argument.minimum;
  if (argument.maximum !== undefined) schema.maximum = argument.maximum;
  if (argument.minLength !== undefined) schema.minLength = argument.minLength;
  if (argument.maxLength !== undefined) schema.maxLength = argument.maxLength;
  if (argument.type === "object" && argument.fields !== undefined)
    schema.properties = propertiesSchema(argument.fields);
  return schema;
}

function itemsSchema(items: ItemSchema): ParameterItems {
  const shown = shownEnum(items.type, items);
  const schema: ParameterItems = { type: shown.type };
  if (shown.enum !== undefined) schema.enum = shown.enum;
  if (items.items !== undefined) schema.items = itemsSchema(items.items);
  if (items.type === "object" && items.fields !== undefined) {
    schema.properties = propertiesSchema(items.fields);
    schema.required = requiredNames(items.fields);
  }
  return schema;
}

/** The `properties` of an object: each field's schema, with what has no field there said in its description. */
function propertiesSchema(fields: readonly ArgumentSchema[]): NonNullable<ParameterSchema["properties"]> {
  const properties: NonNullable<ParameterSchema["properties"]> = {};
  for (const field of fields) {
    const shown = shownEnum(field.type, field);
    const property: ParameterItems & { description?: string } = { type: shown.type };
    const description = propertyDescription(field);
    if (description !== undefined) property.description = description;
    if (shown.enum !== undefined) property.enum = shown.enum;
    if (field.items !== undefined) property.items = itemsSchema(field.items);
    if (field.type === "object" && field.fields !== undefined) {
      property.properties = propertiesSchema(field.fields);
      property.required = requiredNames(field.fields);
    }
    properties[field.name] = property;
  }
  return properties;
}

function requiredNames(fields: readonly ArgumentSchema[]): string[] {
  return fields.filter((field) => field.required).map((field) => field.name);
}
