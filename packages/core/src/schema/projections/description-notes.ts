import { codecNamed } from "../codecs/index.js";
import type { Schema } from "../schema.js";

/**
 * Where a schema is shown in a dialect that lacks fields for some of its facts: a
 * manifest parameter (which has bound and length fields, but no format, no enum names and
 * nothing for its elements), a nested manifest property (which has no bound, length or
 * optionality fields either), or a JSON Schema (which lacks only the enum names' mapping).
 */
export type NotedPlace = "parameter" | "property" | "json-schema";

/**
 * The description of `schema` as shown at `place`: its own description with the facts the
 * dialect there has no field for appended in parentheses (`When to meet (ISO 8601
 * date-time, …)`, `Days ahead (1 to 7; optional)`). Without a description, the facts
 * alone; `undefined` when there is nothing to say. The one place that decides what a
 * projection says in text instead of a field.
 */
export function describedWithNotes(schema: Schema, place: NotedPlace, required = true): string | undefined {
  const notes =
    place === "json-schema"
      ? [enumNote(schema)]
      : place === "parameter"
        ? [formatNote(schema), enumNote(schema), elementNote(schema)]
        : [
            formatNote(schema),
            enumNote(schema),
            rangeNote(schema),
            lengthNote(schema),
            elementNote(schema),
            required ? undefined : "optional",
          ];
  return withNotes(schema.description, notes);
}

function withNotes(description: string | undefined, notes: readonly (string | undefined)[]) {
  const said = notes.filter((note): note is string => note !== undefined);
  if (said.length === 0) return description;
  if (description === undefined) return said.join("; ");
  return `${description} (${said.join("; ")})`;
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
  const facts = [formatNote(items), enumNote(items), rangeNote(items), lengthNote(items)].filter(Boolean);
  return facts.length > 0 ? `each: ${facts.join(", ")}` : undefined;
}
