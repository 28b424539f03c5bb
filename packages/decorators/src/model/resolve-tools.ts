import { DefinitionError } from "../errors/definition-error.js";
import type { ToolMetadata } from "../metadata/definitions.js";
import { getMetadataStorage } from "../metadata/storage.js";
import { classNameOf } from "./class-name.js";
import { resolveTool } from "./resolve-tool.js";
import type { PluginInfo, ToolModel } from "./types.js";

/**
 * The tools of a plugin class and its base classes, base classes first, each resolved.
 * Throws a {@link DefinitionError} when there are none or two share a name.
 */
export function resolveTools(className: string, chain: readonly Function[], info: PluginInfo): ToolModel[] {
  const declarations = inheritedTools(chain);
  if (declarations.length === 0) {
    throw new DefinitionError(
      "NO_TOOLS",
      className,
      "",
      "the plugin has no tools",
      'mark at least one method with @Tool({ description: "…" })',
    );
  }
  const tools: ToolModel[] = [];
  for (const declaration of declarations) {
    const tool = resolveTool(declaration.target, classNameOf(declaration.target), declaration, info);
    const clash = tools.find((existing) => existing.name === tool.name);
    if (clash) {
      throw new DefinitionError(
        "DUPLICATE_TOOL_NAME",
        className,
        tool.methodName,
        `tool name "${tool.name}" is already used by ${className}.${clash.methodName}`,
        "give one of them a different @Tool({ name }) (default names are the method names in snake_case)",
      );
    }
    tools.push(tool);
  }
  return tools;
}

/**
 * The `@Tool`s of a class and its base classes, base classes first. A subclass that
 * declares `@Tool` on a method its base class declared it on replaces that declaration
 * (in the base's place); overriding the method without decorators keeps the base's
 * declaration, and the override runs. Checks each class's own declarations.
 */
function inheritedTools(chain: readonly Function[]): ToolMetadata[] {
  const byMethod = new Map<string, ToolMetadata>();
  for (const ctor of chain) {
    for (const tool of ownTools(ctor)) byMethod.set(tool.methodName, tool);
  }
  return [...byMethod.values()];
}

/** The `@Tool`s declared on exactly this class: one per method, and every method with parameter decorators among them. */
function ownTools(ctor: Function): readonly ToolMetadata[] {
  const storage = getMetadataStorage();
  const tools = storage.toolsOf(ctor);
  const own = new Set<string>();
  for (const tool of tools) {
    if (own.has(tool.methodName)) {
      throw new DefinitionError(
        "DECORATOR_REPEATED",
        classNameOf(ctor),
        tool.methodName,
        "@Tool is applied twice",
        "keep one @Tool per method",
      );
    }
    own.add(tool.methodName);
  }
  for (const method of storage.methodsWithParams(ctor)) {
    if (!own.has(method)) {
      throw new DefinitionError(
        "DECORATOR_MISPLACED",
        classNameOf(ctor),
        method,
        "the method has parameter decorators but no @Tool",
        'add @Tool({ description: "…" }) to the method, or remove the parameter decorators',
      );
    }
  }
  return tools;
}
