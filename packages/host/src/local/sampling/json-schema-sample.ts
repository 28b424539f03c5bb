import { resolveRef } from "./json-schema-ref.js";

/**
 * A deterministic value that satisfies a structured-output schema, built from the prompt:
 * every declared property (required or not), the first `enum`/`const` option, strings
 * taken from the prompt (its opening words for the root's properties, single words below)
 * and fitted to their length bounds, numbers at their lower bound, `minItems` items (at
 * least one; told apart when `uniqueItems` asks). The local echo model answers with it, so
 * structured sampling works offline without scripted answers.
 */
export function sampleForSchema(schema: Record<string, unknown>, prompt: string): unknown {
  const words = prompt.split(/\s+/).filter(Boolean);
  const sampler = new Sampler(schema, words.length > 0 ? words : ["text"], prompt.trim() || "text");
  return sampler.value(schema, 0);
}

type Schema = Record<string, unknown>;

const FORMATS: Readonly<Record<string, string>> = {
  "date-time": "2025-01-01T00:00:00.000Z",
  date: "2025-01-01",
  time: "00:00:00",
  email: "user@example.com",
  uri: "https://example.com/",
  url: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
};

/** Beyond this depth only the cheapest values are built (recursive `$ref`s end here). */
const MAX_DEPTH = 16;

class Sampler {
  private nextWord = 0;

  constructor(
    private readonly root: Schema,
    private readonly words: string[],
    private readonly prompt: string,
  ) {}

  /**
   * `variant` tells apart the elements of a list that must not repeat: element `n` takes the
   * `n`th option, a bound plus `n`, a string ending in `n + 1` (as far as the schema allows).
   */
  value(raw: Schema, depth: number, variant = 0): unknown {
    const schema = resolveRef(raw, this.root);
    if ("const" in schema) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0)
      return schema.enum[variant % schema.enum.length];
    const option = [schema.anyOf, schema.oneOf].find(Array.isArray)?.find(isSchema);
    if (option) return this.value(option, depth + 1, variant);
    if (Array.isArray(schema.allOf)) return this.merged(schema, depth, variant);
    switch (this.typeOf(schema)) {
      case "object":
        return this.object(schema, depth, variant);
      case "array":
        return this.array(schema, depth);
      case "string":
        return this.string(schema, depth, variant);
      case "integer":
        return shifted(integerIn(schema), variant, schema);
      case "number":
        return shifted(numberIn(schema), variant, schema);
      case "boolean":
        return variant % 2 === 1;
      default:
        return null;
    }
  }

  private typeOf(schema: Schema): string {
    const types = [schema.type].flat().filter((type) => typeof type === "string");
    const chosen = types.find((type) => type !== "null") ?? types[0];
    if (chosen) return chosen;
    if (isSchema(schema.properties)) return "object";
    return isSchema(schema.items) ? "array" : "string";
  }

  private merged(schema: Schema, depth: number, variant: number): unknown {
    const parts = (schema.allOf as unknown[]).filter(isSchema).map((part) => resolveRef(part, this.root));
    const { allOf: _allOf, ...own } = schema;
    const merged: Schema = { ...own };
    for (const part of parts) {
      Object.assign(merged, part, {
        properties: { ...(merged.properties as Schema), ...(part.properties as Schema) },
        required: [...asList(merged.required), ...asList(part.required)],
      });
    }
    return this.value(merged, depth + 1, variant);
  }

  private object(schema: Schema, depth: number, variant: number): Record<string, unknown> {
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const required = new Set(asList(schema.required));
    const value: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(properties)) {
      if (!isSchema(member) || (depth >= MAX_DEPTH && !required.has(name))) continue;
      value[name] = this.value(member, depth + 1, variant);
    }
    return value;
  }

  private array(schema: Schema, depth: number): unknown[] {
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const max = typeof schema.maxItems === "number" ? schema.maxItems : Number.POSITIVE_INFINITY;
    const count = Math.min(Math.max(min, depth >= MAX_DEPTH ? 0 : 1), max);
    const items = isSchema(schema.items) ? schema.items : {};
    const unique = schema.uniqueItems === true;
    return Array.from({ length: count }, (_, index) => this.value(items, depth + 1, unique ? index : 0));
  }

  /**
   * The prompt for a string schema at the root, its opening words for a property of the
   * root, one word of it (in turn) below: short enough for the length bounds a schema
   * may leave unsaid.
   */
  private opening(): string {
    let opening = this.words[0]!.slice(0, OPENING_CHARS);
    for (const word of this.words.slice(1, OPENING_WORDS)) {
      if (opening.length + 1 + word.length > OPENING_CHARS) break;
      opening += ` ${word}`;
    }
    return opening;
  }

  private string(schema: Schema, depth: number, variant: number): string {
    if (typeof schema.format === "string" && FORMATS[schema.format]) return FORMATS[schema.format]!;
    const base =
      depth === 0
        ? this.prompt
        : depth === 1
          ? this.opening()
          : this.words[this.nextWord++ % this.words.length]!;
    const chars = [...base];
    const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
    const min = typeof schema.minLength === "number" ? schema.minLength : 0;
    const suffix = variant > 0 ? [...` ${variant + 1}`] : [];
    // A suffix longer than the bound keeps its last characters: the ones that differ.
    const fitted = [
      ...chars.slice(0, Math.max(0, max - suffix.length)),
      ...suffix.slice(Math.max(0, suffix.length - max)),
    ];
    while (fitted.length < min) fitted.push(chars[fitted.length % chars.length] ?? "x");
    return fitted.join("");
  }
}

/** At most {@link OPENING_WORDS} words and {@link OPENING_CHARS} characters. */
const OPENING_WORDS = 6;
const OPENING_CHARS = 48;

function integerIn(schema: Schema): number {
  const { minimum, exclusiveMinimum, maximum, exclusiveMaximum } = schema;
  let value = 0;
  if (typeof minimum === "number") value = Math.ceil(minimum);
  else if (typeof exclusiveMinimum === "number") value = Math.floor(exclusiveMinimum) + 1;
  else if (typeof maximum === "number" && maximum < 0) value = Math.floor(maximum);
  else if (typeof exclusiveMaximum === "number" && exclusiveMaximum <= 0)
    value = Math.ceil(exclusiveMaximum) - 1;
  return value;
}

function numberIn(schema: Schema): number {
  const { minimum, exclusiveMinimum, maximum, exclusiveMaximum } = schema;
  if (typeof minimum === "number") return minimum;
  if (typeof exclusiveMinimum === "number") {
    const upper = typeof maximum === "number" ? maximum : exclusiveMaximum;
    return typeof upper === "number" ? (exclusiveMinimum + upper) / 2 : exclusiveMinimum + 1;
  }
  if (typeof maximum === "number" && maximum < 0) return maximum;
  if (typeof exclusiveMaximum === "number" && exclusiveMaximum <= 0) return exclusiveMaximum - 1;
  return 0;
}

/** `value` moved up by `variant`, unless that would pass the schema's upper bound. */
function shifted(value: number, variant: number, schema: Schema): number {
  const moved = value + variant;
  const { maximum, exclusiveMaximum } = schema;
  if (typeof maximum === "number" && moved > maximum) return value;
  if (typeof exclusiveMaximum === "number" && moved >= exclusiveMaximum) return value;
  return moved;
}

function asList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
