import { sourceInfoOf } from "@executa/core/internal";
import { DefinitionError } from "../errors/definition-error.js";
import type { PluginMetadata } from "../metadata/definitions.js";
import { getMetadataStorage, lineage } from "../metadata/storage.js";
import { classNameOf } from "./class-name.js";
import { resolveHooks } from "./resolve-hooks.js";
import { resolveTools } from "./resolve-tools.js";
import type { PluginModel } from "./types.js";
import { checkDocTags } from "./unknown-doc-tags.js";
import { validatePluginOptions } from "./validate-plugin-options.js";

/**
 * Turns what the decorators of a class (and of its base classes: tools and hooks are
 * inherited) recorded into a validated {@link PluginModel}.
 * Throws the first problem as a {@link DefinitionError} naming the class, the member and
 * the fix.
 */
export function resolvePlugin(target: unknown): PluginModel {
  if (typeof target !== "function") {
    throw new DefinitionError(
      "NOT_A_CLASS",
      String(target),
      "",
      "this is not a class",
      "pass the class decorated with @Plugin",
    );
  }
  const className = classNameOf(target);
  const chain = lineage(target);
  reportRecordedMisuse(chain);
  checkDocTags(target);
  const plugin = pluginDecorator(target, className);
  const source = sourceInfoOf(target);
  const info = validatePluginOptions(className, plugin.options, source?.description, source?.packageVersion);
  const tools = resolveTools(className, chain, info);
  const hooks = resolveHooks(chain, new Set(tools.map((tool) => tool.methodName)));
  const model: PluginModel = { className, target, info, tools };
  if (plugin.options.server) model.server = { ...plugin.options.server };
  return Object.assign(model, hooks);
}

/** Decorators record misplacements instead of throwing while the module loads; the first is reported here. */
function reportRecordedMisuse(chain: readonly Function[]): void {
  const storage = getMetadataStorage();
  for (const ctor of chain) {
    const misuse = storage.misusesOf(ctor)[0];
    if (misuse) {
      throw new DefinitionError(
        "DECORATOR_MISPLACED",
        classNameOf(ctor),
        misuse.member,
        misuse.problem,
        misuse.fix,
      );
    }
  }
}

/** The class's one `@Plugin`. */
function pluginDecorator(target: Function, className: string): PluginMetadata {
  const [plugin, second] = getMetadataStorage().pluginsOf(target);
  if (!plugin) {
    throw new DefinitionError(
      "PLUGIN_DECORATOR_MISSING",
      className,
      "",
      "the class has no @Plugin decorator",
      'decorate it: @Plugin({ name: "my-tool", version: "1.0.0", description: "…" })',
    );
  }
  if (second) {
    throw new DefinitionError(
      "DECORATOR_REPEATED",
      className,
      "",
      "@Plugin is applied twice",
      "keep one @Plugin",
    );
  }
  return plugin;
}
