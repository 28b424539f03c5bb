import { codecNamed } from "../codecs/index.js";
import type { Schema } from "../schema.js";

/**
 * Where a schema is shown in a dialect that lacks fields for some of its facts: a
 * manifest parameter (which has bound and length fields, but no format, pattern,
 * exclusive bounds, item counts, uniqueness, enum names or anything for its elements), a nested
 * manifest property (which has no bound, length, default or optionality fields either),
 * a JSON Schema (which lacks only the enum names' mapping), or a `response_format` schema
 * (asked with numbers for enums; `strict: true` also lacks defaults, length bounds,
 * `uniqueItems` and the formats strict structured outputs do not accept, see
 * {@link STRICT_FORMATS}). In every place,
 * the rules no keyword expresses (`rules`) are said.
 */
export type NotedPlace =
  | "parameter"
  | "property"
  | "json-schema"
  | "response-format"
  | "strict-response-format";

/**
 * The formats strict structured outputs (OpenAI's `strict: true`) accept; any other
 * `format` is refused there, so it is said in the description instead.
 */
export const STRICT_FORMATS: ReadonlySet<string> = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

/**
 * The description of `schema` as shown at `place`: its own description with the facts the
 * dialect there has no field for appended in parentheses (`When to meet (ISO 8601
 * date-time, …)`, `Days ahead (1 to 7; optional)`), or joined to the aside the description
 * ends with (`Text (up to 100 characters; matching \S).`). Without a description, the facts
 * alone; `undefined` when there is nothing to say. The one place that decides what a
 * projection says in text instead of a field.
 */
export function describedWithNotes(schema: Schema, place: NotedPlace, required = true): string | undefined {
  return withNotes(schema.description, notesAt(schema, place, required));
}

function notesAt(schema: Schema, place: NotedPlace, required: boolean): (string | undefined)[] {
  switch (place) {
    case "json-schema":
      return [enumNote(schema), rulesNote(schema)];
    case "response-format":
      return [rulesNote(schema)];
    case "strict-response-format":
      return [
        strictFormatNote(schema),
        lengthNote(schema),
        uniqueNote(schema),
        rulesNote(schema),
        defaultNote(schema),
      ];
    case "parameter":
      return [
        formatNote(schema),
        patternNote(schema),
        enumNote(schema),
        exclusiveNote(schema),
        countNote(schema),
        uniqueNote(schema),
        rulesNote(schema),
        elementNote(schema),
      ];
    case "property":
      return [
        formatNote(schema),
        patternNote(schema),
        enumNote(schema),
        rangeNote(schema),
        exclusiveNote(schema),
        lengthNote(schema),
        countNote(schema),
        uniqueNote(schema),
        rulesNote(schema),
        elementNote(schema),
        defaultNote(schema),
        required ? undefined : "optional",
      ];
  }
}

function withNotes(description: string | undefined, notes: readonly (string | undefined)[]) {
  const said = notes.filter((note): note is string => note !== undefined);
  if (said.length === 0) return description;
  if (description === undefined) return said.join("; ");
  const closing = closingAside(description);
  if (closing === undefined) return `${description} (${said.join("; ")})`;
  return `${closing.before} (${[closing.aside, ...said].join("; ")})${closing.after}`;
}

/**
 * The one parenthesised aside a description ends with (`The text (up to 100 characters).`),
 * which the notes join so that one group says them all. A description with other parentheses,
 * or whose aside is a quoted example (`("Paris, Texas")`), keeps the notes in a group of
 * their own: joining them there would read as part of something else.
 */
function closingAside(description: string): { before: string; aside: string; after: string } | undefined {
  const match = /^([^()]*\S) \(([^()"“'‘][^()]*)\)(\.?)$/u.exec(description);
  if (match === null) return undefined;
  const [, before = "", aside = "", after = ""] = match;
  return { before, aside, after };
}

/** How a formatted string is sent: `ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z`. */
function formatNote(schema: Schema): string | undefined {
  if (!("format" in schema) || schema.format === undefined) return undefined;
  return codecNamed(schema.format)?.description ?? `format ${schema.format}`;
}

/** A numeric enum's mapping, which the names shown stand for: `Low = 0, Medium = 1, High = 2`. */
function enumNote(schema: Schema): string | undefined {
  if (!("enumNames" in schema) || schema.enumNames === undefined || schema.enum === undefined)
    return undefined;
  const values = schema.enum;
  return schema.enumNames.map((name, index) => `${name} = ${String(values[index])}`).join(", ");
}

/** `1 to 7`, `at least 1`, `at most 7`, or nothing. */
function rangeNote(schema: Schema): string | undefined {
  if (!("minimum" in schema || "maximum" in schema)) return undefined;
  const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
  if (minimum !== undefined && maximum !== undefined) return `${minimum} to ${maximum}`;
  if (minimum !== undefined) return `at least ${minimum}`;
  if (maximum !== undefined) return `at most ${maximum}`;
  return undefined;
}

/** `1 to 100 characters`, `at least 1 character`, `at most 100 characters`, or nothing. */
function lengthNote(schema: Schema): string | undefined {
  if (!("minLength" in schema || "maxLength" in schema)) return undefined;
  const { minLength, maxLength } = schema as { minLength?: number; maxLength?: number };
  const unit = (count: number) => (count === 1 ? "character" : "characters");
  if (minLength !== undefined && maxLength !== undefined)
    return `${minLength} to ${maxLength} ${unit(maxLength)}`;
  if (minLength !== undefined) return `at least ${minLength} ${unit(minLength)}`;
  if (maxLength !== undefined) return `at most ${maxLength} ${unit(maxLength)}`;
  return undefined;
}

/** The facts of array elements, which `items` has no field for: `each: 1 to 7`. */
function elementNote(schema: Schema): string | undefined {
  if (!("items" in schema) || schema.items === undefined) return undefined;
  const { items } = schema;
  const facts = [
    formatNote(items),
    patternNote(items),
    enumNote(items),
    rangeNote(items),
    exclusiveNote(items),
    lengthNote(items),
    countNote(items),
    uniqueNote(items),
    rulesNote(items),
  ].filter(Boolean);
  return facts.length > 0 ? `each: ${facts.join(", ")}` : undefined;
}

/** A format strict structured outputs refuse: said as {@link formatNote} says it. */
function strictFormatNote(schema: Schema): string | undefined {
  if (!("format" in schema) || schema.format === undefined || STRICT_FORMATS.has(schema.format))
    return undefined;
  return formatNote(schema);
}

/** `matching ^[a-z]+$`: the regular expression the value must match somewhere. */
function patternNote(schema: Schema): string | undefined {
  if (!("pattern" in schema) || schema.pattern === undefined) return undefined;
  return `matching ${schema.pattern}`;
}

/** `above 0`, `below 0`, `above 0 and below 10`, or nothing. */
function exclusiveNote(schema: Schema): string | undefined {
  if (!("exclusiveMinimum" in schema || "exclusiveMaximum" in schema)) return undefined;
  const { exclusiveMinimum, exclusiveMaximum } = schema as {
    exclusiveMinimum?: number;
    exclusiveMaximum?: number;
  };
  const said = [
    exclusiveMinimum !== undefined ? `above ${exclusiveMinimum}` : undefined,
    exclusiveMaximum !== undefined ? `below ${exclusiveMaximum}` : undefined,
  ].filter(Boolean);
  return said.length > 0 ? said.join(" and ") : undefined;
}

/** `1 to 5 items`, `at least 1 item`, `at most 5 items`, or nothing. */
function countNote(schema: Schema): string | undefined {
  if (!("minItems" in schema || "maxItems" in schema)) return undefined;
  const { minItems, maxItems } = schema as { minItems?: number; maxItems?: number };
  const unit = (count: number) => (count === 1 ? "item" : "items");
  if (minItems !== undefined && maxItems !== undefined) return `${minItems} to ${maxItems} ${unit(maxItems)}`;
  if (minItems !== undefined) return `at least ${minItems} ${unit(minItems)}`;
  if (maxItems !== undefined) return `at most ${maxItems} ${unit(maxItems)}`;
  return undefined;
}

/** `unique elements`: no two elements equal (`uniqueItems`, where the dialect has no field for it). */
function uniqueNote(schema: Schema): string | undefined {
  return "uniqueItems" in schema && schema.uniqueItems === true ? "unique elements" : undefined;
}

/** The rules no keyword expresses, as they read: `an absolute URL, not empty`. */
function rulesNote(schema: Schema): string | undefined {
  return schema.rules !== undefined && schema.rules.length > 0 ? schema.rules.join(", ") : undefined;
}

/** `default 5`: the value taken when none is sent (where the dialect has no `default` field). */
function defaultNote(schema: Schema): string | undefined {
  return "default" in schema && schema.default !== undefined
    ? `default ${JSON.stringify(schema.default)}`
    : undefined;
}
