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

/**
 * The manifest of a resolved plugin, with only the fields the protocol spec names, in the
 * spec's order. Per parameter: `name`, `type`, `items` (arrays; always given, JSON Schema
 * style), `description`, `required` (always given), `default`, `enum`. Validation bounds
 * (Min, Max, Length…) and nested DTO shapes are enforced per invoke but have no field in
 * the spec, so they are not emitted.
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
  const schema: ParameterSchema = { name: argument.name, type: argument.type };
  if (argument.items !== undefined) schema.items = itemsSchema(argument.items);
  if (argument.description !== undefined) schema.description = argument.description;
  schema.required = argument.required;
  if (argument.hasDefault) schema.default = structuredClone(argument.default);
  if (argument.enum !== undefined) schema.enum = [...argument.enum];
  return schema;
}

function itemsSchema(items: ItemSchema): ParameterItems {
  const schema: ParameterItems = { type: items.type };
  if (items.enum !== undefined) schema.enum = [...items.enum];
  if (items.items !== undefined) schema.items = itemsSchema(items.items);
  return schema;
}
