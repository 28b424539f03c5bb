import type { PluginDefinition } from "@executa/core";

/** What {@link runInProcess} accepts: a core plugin definition (decorated classes come later). */
export type PluginTarget = PluginDefinition;

/** The core definition of a target. @throws TypeError for anything else. */
export function toDefinition(target: PluginTarget): PluginDefinition {
  if (isDefinition(target)) return target;
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
  if (typeof value === "function") return `function ${value.name || "(anonymous)"}`;
  if (typeof value === "object")
    return `an object with keys ${Object.keys(value).slice(0, 5).join(", ") || "(none)"}`;
  return typeof value;
}
