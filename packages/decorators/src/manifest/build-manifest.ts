import { type Manifest, type ManifestIssue, type ToolManifest, validateManifest } from "@executa/core";
import { manifestParameters } from "@executa/core/internal";
import { DefinitionError } from "../errors/definition-error.js";
import type { PluginModel, ToolModel } from "../model/types.js";

/**
 * The manifest of a resolved plugin, with the fields the protocol names, in the spec's
 * order; each tool's `parameters` are the projection of its input schema value (core's
 * `manifestParameters`), so manifest, MCP and validation say the same facts.
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
  manifest.parameters = manifestParameters(tool.input);
  return manifest;
}
