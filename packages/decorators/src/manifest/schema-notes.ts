import { VALUE_FORMATS, type ValueFormat } from "@executa/core/internal";
import type { ArgumentSchema, ItemSchema } from "../model/types.js";

/** How a formatted value is sent: the manifest has no `format` field, so the description says it. */
export function formatNote(format: ValueFormat | undefined): string | undefined {
  return format === undefined ? undefined : VALUE_FORMATS[format].note;
}

/** What a schema without its own manifest field for it needs said in text. */
interface Noted {
  format?: ValueFormat;
  enum?: ArgumentSchema["enum"];
  enumNames?: readonly string[];
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

/**
 * What the manifest shows of an enum: a numeric TypeScript enum's member names, as a
 * string enum (the model reads and sends `"High"`, the method gets 2); other enums as
 * they are. `value` maps a default the same way.
 */
export function shownEnum<T extends string>(
  type: T,
  schema: Noted,
): {
  type: T | "string";
  enum?: NonNullable<ArgumentSchema["enum"]>[number][];
  value: (value: unknown) => unknown;
} {
  const { enum: values, enumNames: names } = schema;
  if (values === undefined) return { type, value: (value) => value };
  if (names === undefined) return { type, enum: [...values], value: (value) => value };
  return {
    type: "string",
    enum: [...names],
    value: (value) => {
      const index = values.indexOf(value as never);
      return index === -1 ? value : names[index];
    },
  };
}

/** A numeric enum's mapping, which the names shown stand for: `Low = 0, Medium = 1, High = 2`. */
function enumNote({ enum: values, enumNames: names }: Noted): string | undefined {
  if (values === undefined || names === undefined) return undefined;
  return names.map((name, index) => `${name} = ${String(values[index])}`).join(", ");
}

/** The facts of array elements, which `items` has no field for: `each: 1 to 7`. */
function elementNote(items: ItemSchema | undefined): string | undefined {
  if (items === undefined) return undefined;
  const facts = [formatNote(items.format), enumNote(items), rangeNote(items)].filter(Boolean);
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

/** A top-level parameter's description: its format and its elements' facts (bounds have fields). */
export function parameterDescription(argument: ArgumentSchema): string | undefined {
  return describeWithNotes(argument.description, [
    formatNote(argument.format),
    enumNote(argument),
    elementNote(argument.items),
  ]);
}

/** A nested property's description: everything, since `properties` entries have no bound fields. */
export function propertyDescription(field: ArgumentSchema): string | undefined {
  return describeWithNotes(field.description, [
    formatNote(field.format),
    enumNote(field),
    rangeNote(field),
    lengthNote(field),
    elementNote(field.items),
    field.required ? undefined : "optional",
  ]);
}
