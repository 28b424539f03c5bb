import type { Schema } from "@executa/core";
import type { InferredArgument } from "./argument-input.js";

/** The bounds each type of value can carry; one a value's type cannot carry is left out (class-validator refuses every such value anyway). */
const BOUNDS_OF: Readonly<Record<string, readonly (keyof InferredArgument)[]>> = {
  string: ["minLength", "maxLength", "pattern"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
  integer: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
  array: ["minItems", "maxItems", "uniqueItems"],
};

/**
 * A resolved schema value with what was inferred beyond the facts resolving checks (type,
 * enum, `minimum` / `maximum`, lengths, format): the other bounds (`pattern`, exclusive
 * bounds, item counts, uniqueness), the elements' bounds and format (`each: true`), and the rules no
 * keyword expresses. A keyword the schema already has (an explicit option, the source's
 * element schema) is kept.
 */
export function withInferredKeywords(schema: Schema, inferred: InferredArgument): Schema {
  const own = withBounds(schema, inferred);
  const { elements } = inferred;
  if (elements === undefined || !("type" in own) || own.type !== "array" || own.items === undefined)
    return own;
  const element = elements.format !== undefined ? withFormat(own.items, elements.format) : own.items;
  const items = withBounds(element, elements);
  return items === own.items ? own : { ...own, items };
}

function withBounds(schema: Schema, inferred: InferredArgument): Schema {
  const type = "type" in schema && typeof schema.type === "string" ? schema.type : undefined;
  const added: Record<string, unknown> = {};
  for (const key of BOUNDS_OF[type ?? ""] ?? []) {
    const value = inferred[key];
    if (value !== undefined && !(key in schema)) added[key] = value;
  }
  const rules = inferred.rules ?? [];
  if (rules.length > 0)
    added.rules = [...(schema.rules ?? []), ...rules.filter((rule) => !schema.rules?.includes(rule))];
  return Object.keys(added).length > 0 ? ({ ...schema, ...added } as Schema) : schema;
}

/** An element's annotation format (`email`), where it is a string without one. */
function withFormat(schema: Schema, format: string): Schema {
  if (!("type" in schema) || schema.type !== "string" || schema.format !== undefined) return schema;
  return { ...schema, format };
}
