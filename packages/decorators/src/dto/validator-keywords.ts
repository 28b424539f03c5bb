import type { Schema } from "@executa/core";
import type { SchemaKeywords, ValidatorFacts } from "./validator-converters.js";

/** The keywords each type of value can carry; one a value's type cannot carry is left out (class-validator refuses every such value anyway). */
const KEYWORDS_OF: Readonly<Record<string, readonly (keyof SchemaKeywords)[]>> = {
  string: ["minLength", "maxLength", "pattern"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
  integer: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
  array: ["minItems", "maxItems"],
};

/**
 * A DTO property's resolved schema value with what its class-validator rules say beyond
 * the facts resolving merges (type, enum, bounds, lengths, format): `pattern`, exclusive
 * bounds, item counts, the elements' keywords and format (`each: true`), and the rules no
 * keyword expresses. A keyword the schema already has (an explicit option) is kept.
 */
export function withValidatorFacts(schema: Schema, facts: ValidatorFacts): Schema {
  const own = withKeywords(schema, facts.keywords, facts.rules);
  if (!("type" in own) || own.type !== "array" || own.items === undefined) return own;
  const element = facts.itemFormat !== undefined ? withFormat(own.items, facts.itemFormat) : own.items;
  const items = withKeywords(element, facts.itemKeywords, facts.itemRules);
  return items === own.items ? own : { ...own, items };
}

function withKeywords(schema: Schema, keywords: SchemaKeywords, rules: readonly string[]): Schema {
  const type = "type" in schema && typeof schema.type === "string" ? schema.type : undefined;
  const added: Record<string, unknown> = {};
  for (const key of KEYWORDS_OF[type ?? ""] ?? []) {
    const value = keywords[key];
    if (value !== undefined && !(key in schema)) added[key] = value;
  }
  if (rules.length > 0)
    added.rules = [...(schema.rules ?? []), ...rules.filter((rule) => !schema.rules?.includes(rule))];
  return Object.keys(added).length > 0 ? ({ ...schema, ...added } as Schema) : schema;
}

/** An element's annotation format (`email`), where it is a string without one. */
function withFormat(schema: Schema, format: string): Schema {
  if (!("type" in schema) || schema.type !== "string" || schema.format !== undefined) return schema;
  return { ...schema, format };
}
