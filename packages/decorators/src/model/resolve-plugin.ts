import { DecoratorMisuseError } from "../errors/decorator-misuse-error.js";
import { DuplicateToolNameError } from "../errors/duplicate-tool-name-error.js";
import { MissingPluginDecoratorError } from "../errors/missing-plugin-decorator-error.js";
import type { HookKind } from "../metadata/definitions.js";
import { getMetadataStorage } from "../metadata/storage.js";
import { resolveTool } from "./resolve-tool.js";
import type { PluginModel, ToolModel } from "./types.js";
import { validatePluginOptions } from "./validate-plugin-options.js";

const HOOK_DECORATORS: Record<HookKind, string> = {
  health: "@Health()",
  start: "@OnStart()",
  stop: "@OnStop()",
};

/**
 * Turns what the decorators of a class recorded into a validated {@link PluginModel}.
 * Throws the first problem as a `PluginDefinitionError` subclass naming the class, the
 * member and the fix.
 */
export function resolvePlugin(target: unknown): PluginModel {
  if (typeof target !== "function") {
    throw new MissingPluginDecoratorError(
      String(target),
      "",
      "this is not a class",
      "pass the class decorated with @Plugin",
    );
  }
  const className = target.name || "(anonymous class)";
  const storage = getMetadataStorage();
  const misuse = storage.misusesOf(target)[0];
  if (misuse) throw new DecoratorMisuseError(className, misuse.member, misuse.problem, misuse.fix);

  const plugins = storage.pluginsOf(target);
  const plugin = plugins[0];
  if (!plugin) {
    throw new MissingPluginDecoratorError(
      className,
      "",
      "the class has no @Plugin decorator",
      'decorate it: @Plugin({ name: "my-tool", version: "1.0.0", description: "…" })',
    );
  }
  if (plugins.length > 1)
    throw new DecoratorMisuseError(className, "", "@Plugin is applied twice", "keep one @Plugin");
  const info = validatePluginOptions(className, plugin.options);

  const toolMetadata = storage.toolsOf(target);
  if (toolMetadata.length === 0) {
    throw new MissingPluginDecoratorError(
      className,
      "",
      "the plugin has no tools",
      'mark at least one method with @Tool({ description: "…" })',
    );
  }
  const seenMethods = new Set<string>();
  for (const tool of toolMetadata) {
    if (seenMethods.has(tool.methodName)) {
      throw new DecoratorMisuseError(
        className,
        tool.methodName,
        "@Tool is applied twice",
        "keep one @Tool per method",
      );
    }
    seenMethods.add(tool.methodName);
  }
  for (const method of storage.methodsWithParams(target)) {
    if (!seenMethods.has(method)) {
      throw new DecoratorMisuseError(
        className,
        method,
        "the method has parameter decorators but no @Tool",
        'add @Tool({ description: "…" }) to the method, or remove the parameter decorators',
      );
    }
  }

  const tools: ToolModel[] = [];
  for (const metadata of toolMetadata) {
    const tool = resolveTool(target, className, metadata, info);
    const clash = tools.find((existing) => existing.name === tool.name);
    if (clash) {
      throw new DuplicateToolNameError(
        className,
        tool.methodName,
        `tool name "${tool.name}" is already used by ${className}.${clash.methodName}`,
        "give one of them a different @Tool({ name }) (default names are the method names in snake_case)",
      );
    }
    tools.push(tool);
  }

  const model: PluginModel = { className, target, info, tools };
  if (plugin.options.server) model.server = { ...plugin.options.server };
  for (const kind of ["health", "start", "stop"] as const) {
    const hooks = storage.hooksOf(target).filter((hook) => hook.hook === kind);
    const decorator = HOOK_DECORATORS[kind];
    const [first, second] = hooks;
    if (second) {
      throw new DecoratorMisuseError(
        className,
        second.methodName,
        `${decorator} is used on ${first?.methodName} and ${second.methodName}`,
        `keep one ${decorator} method; call the others from it`,
      );
    }
    if (!first) continue;
    if (typeof (target.prototype as Record<string, unknown>)[first.methodName] !== "function") {
      throw new DecoratorMisuseError(
        className,
        first.methodName,
        `${decorator} is on something that is not a method`,
        `put ${decorator} on a method`,
      );
    }
    if (seenMethods.has(first.methodName)) {
      throw new DecoratorMisuseError(
        className,
        first.methodName,
        `${decorator} is on a @Tool method`,
        "use a separate method for the hook",
      );
    }
    if (kind === "health") model.health = first.methodName;
    else if (kind === "start") model.onStart = first.methodName;
    else model.onStop = first.methodName;
  }
  return model;
}
