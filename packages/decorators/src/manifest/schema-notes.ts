import type { ArgumentSchema, ItemSchema } from "../model/types.js";

/** How a date-time value is sent: the manifest has no `format` field, so the description says it. */
export const DATE_TIME_NOTE = "ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z";

/** What a schema without its own manifest field for it needs said in text. */
interface Noted {
  format?: "date-time";
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}

/** `1 to 7`, `at least 1`, `at most 7`, or nothing. */
export function rangeNote({ minimum, maximum }: Noted): string | undefined {
  if (minimum !== undefined && maximum !== undefined) return `${minimum} to ${maximum}`;
  if (minimum !== undefined) return `at least ${minimum}`;
  if (maximum !== undefined) return `at most ${maximum}`;
  return undefined;
}

/** `1 to 100 characters`, `at least 1 character`, `at most 100 characters`, or nothing. */
export function lengthNote({ minLength, maxLength }: Noted): string | undefined {
  const unit = (count: number) => (count === 1 ? "character" : "characters");
  if (minLength !== undefined && maxLength !== undefined)
    return `${minLength} to ${maxLength} ${unit(maxLength)}`;
  if (minLength !== undefined) return `at least ${minLength} ${unit(minLength)}`;
  if (maxLength !== undefined) return `at most ${maxLength} ${unit(maxLength)}`;
  return undefined;
}

/** The facts of array elements, which `items` has no field for: `each: 1 to 7`. */
function elementNote(items: ItemSchema | undefined): string | undefined {
  if (items === undefined) return undefined;
  const facts = [items.format === "date-time" ? DATE_TIME_NOTE : undefined, rangeNote(items)].filter(Boolean);
  return facts.length > 0 ? `each: ${facts.join(", ")}` : undefined;
}

/**
 * A description with the facts the protocol has no field for appended in parentheses:
 * `When to meet (ISO 8601 date-time, …)`, `Days ahead (1 to 7; optional)`. Without a
 * description, the facts alone; `undefined` when there is nothing to say.
 */
export function describeWithNotes(description: string | undefined, notes: readonly (string | undefined)[]) {
  const said = notes.filter((note): note is string => note !== undefined);
  if (said.length === 0) return description;
  if (description === undefined) return said.join("; ");
  return `${description} (${said.join("; ")})`;
}

/** A top-level parameter's description: its date-time format and its elements' facts (bounds have fields). */
export function parameterDescription(argument: ArgumentSchema): string | undefined {
  return describeWithNotes(argument.description, [
    argument.format === "date-time" ? DATE_TIME_NOTE : undefined,
    elementNote(argument.items),
  ]);
}

/** A nested property's description: everything, since `properties` entries have no bound fields. */
export function propertyDescription(field: ArgumentSchema): string | undefined {
  return describeWithNotes(field.description, [
    field.format === "date-time" ? DATE_TIME_NOTE : undefined,
    rangeNote(field),
    lengthNote(field),
    elementNote(field.items),
    field.required ? undefined : "optional",
  ]);
}
