import { DecoratorMisuseError } from "../errors/decorator-misuse-error.js";
import { DuplicateToolNameError } from "../errors/duplicate-tool-name-error.js";
import { MissingPluginDecoratorError } from "../errors/missing-plugin-decorator-error.js";
import type { HookKind, HookMetadata, ToolMetadata } from "../metadata/definitions.js";
import { getMetadataStorage, lineage } from "../metadata/storage.js";
import { resolveTool } from "./resolve-tool.js";
import type { PluginModel, ToolModel } from "./types.js";
import { validatePluginOptions } from "./validate-plugin-options.js";

const HOOK_DECORATORS: Record<HookKind, string> = {
  health: "@Health()",
  start: "@OnStart()",
  stop: "@OnStop()",
};

/**
 * Turns what the decorators of a class (and of its base classes: tools and hooks are
 * inherited) recorded into a validated {@link PluginModel}.
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
  const className = nameOf(target);
  const storage = getMetadataStorage();
  const chain = lineage(target);
  for (const ctor of chain) {
    const misuse = storage.misusesOf(ctor)[0];
    if (misuse) throw new DecoratorMisuseError(nameOf(ctor), misuse.member, misuse.problem, misuse.fix);
  }

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

  const toolMetadata = inheritedTools(chain);
  if (toolMetadata.length === 0) {
    throw new MissingPluginDecoratorError(
      className,
      "",
      "the plugin has no tools",
      'mark at least one method with @Tool({ description: "…" })',
    );
  }
  const toolMethods = new Set(toolMetadata.map((tool) => tool.methodName));

  const tools: ToolModel[] = [];
  for (const metadata of toolMetadata) {
    const tool = resolveTool(metadata.target, nameOf(metadata.target), metadata, info);
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
    const hook = inheritedHook(chain, kind);
    if (!hook) continue;
    const owner = nameOf(hook.target);
    const decorator = HOOK_DECORATORS[kind];
    if (typeof (hook.target.prototype as Record<string, unknown>)[hook.methodName] !== "function") {
      throw new DecoratorMisuseError(
        owner,
        hook.methodName,
        `${decorator} is on something that is not a method`,
        `put ${decorator} on a method`,
      );
    }
    if (toolMethods.has(hook.methodName)) {
      throw new DecoratorMisuseError(
        owner,
        hook.methodName,
        `${decorator} is on a @Tool method`,
        "use a separate method for the hook",
      );
    }
    if (kind === "health") model.health = hook.methodName;
    else if (kind === "start") model.onStart = hook.methodName;
    else model.onStop = hook.methodName;
  }
  return model;
}

/**
 * The `@Tool`s of a class and its base classes, base classes first. A subclass that
 * declares `@Tool` on a method its base class declared it on replaces that declaration
 * (in the base's place); overriding the method without decorators keeps the base's
 * declaration, and the override runs. Checks each class's own declarations.
 */
function inheritedTools(chain: readonly Function[]): ToolMetadata[] {
  const storage = getMetadataStorage();
  const byMethod = new Map<string, ToolMetadata>();
  for (const ctor of chain) {
    const own = new Set<string>();
    for (const tool of storage.toolsOf(ctor)) {
      if (own.has(tool.methodName)) {
        throw new DecoratorMisuseError(
          nameOf(ctor),
          tool.methodName,
          "@Tool is applied twice",
          "keep one @Tool per method",
        );
      }
      own.add(tool.methodName);
      byMethod.set(tool.methodName, tool);
    }
    for (const method of storage.methodsWithParams(ctor)) {
      if (!own.has(method)) {
        throw new DecoratorMisuseError(
          nameOf(ctor),
          method,
          "the method has parameter decorators but no @Tool",
          'add @Tool({ description: "…" }) to the method, or remove the parameter decorators',
        );
      }
    }
  }
  return [...byMethod.values()];
}

/** The hook of one kind nearest to the class (its own, else its closest base class's). */
function inheritedHook(chain: readonly Function[], kind: HookKind): HookMetadata | undefined {
  const storage = getMetadataStorage();
  let nearest: HookMetadata | undefined;
  for (const ctor of chain) {
    const [first, second] = storage.hooksOf(ctor).filter((hook) => hook.hook === kind);
    const decorator = HOOK_DECORATORS[kind];
    if (second) {
      throw new DecoratorMisuseError(
        nameOf(ctor),
        second.methodName,
        `${decorator} is used on ${first?.methodName} and ${second.methodName}`,
        `keep one ${decorator} method; call the others from it`,
      );
    }
    if (first) nearest = first;
  }
  return nearest;
}

function nameOf(ctor: Function): string {
  return ctor.name || "(anonymous class)";
}
