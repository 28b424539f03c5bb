import type { PluginClass, PluginDefinition } from "@executa/core";
import { buildPlugin } from "@executa/decorators";

export type { PluginClass };

/** What {@link runInProcess} accepts: a decorated class or a core `PluginDefinition`. */
export type PluginTarget<T extends object = object> = PluginClass<T> | PluginDefinition;

/**
 * The core definition of a target: a definition as it is, a class compiled with
 * decorators' `buildPlugin` (which throws a `DefinitionError` naming what is wrong).
 * @throws TypeError for anything else.
 */
export function toDefinition<T extends object>(target: PluginTarget<T>, factory?: () => T): PluginDefinition {
  if (typeof target === "function") return buildPlugin(target, factory ? { factory } : {});
  if (isDefinition(target)) {
    if (factory)
      throw new TypeError("runInProcess: `factory` applies to a @Plugin class, not to a definition");
    return target;
  }
  throw new TypeError(
    `runInProcess: expected a @Plugin class or a PluginDefinition ({ manifest, handlers }), got ${describe(target)}`,
  );
}

function isDefinition(value: unknown): value is PluginDefinition {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<PluginDefinition>;
  return (
    typeof candidate.manifest === "object" &&
    candidate.manifest !== null &&
    Array.isArray(candidate.manifest.tools) &&
    typeof candidate.handlers === "object" &&
    candidate.handlers !== null
  );
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") {
    return `an object with keys ${Object.keys(value).slice(0, 5).join(", ") || "(none)"}`;
  }
  return typeof value;
}
