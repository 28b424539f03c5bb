/**
 * The formats a tool method receives as objects, one module each. Adding one: a module
 * beside these (see {@link ValueFormatRules}), its import and its entry in
 * `FORMAT_MODULES`, its tests. {@link ValueFormat} and the lookups follow from the table.
 */
import { dateTimeFormat } from "./date-time.js";
import { uriFormat } from "./uri.js";
import type { ValueFormatRules } from "./value-format.js";

const FORMAT_MODULES = [dateTimeFormat, uriFormat] as const satisfies readonly ValueFormatRules[];

/** The format names. */
export const VALUE_FORMAT_NAMES = Object.freeze(FORMAT_MODULES.map((rules) => rules.name));

/** A JSON Schema `format` of a string that a method receives as an object: `date-time`, `uri`. */
export type ValueFormat = (typeof VALUE_FORMAT_NAMES)[number];

/** Every format's rules, by name. */
export const VALUE_FORMATS: Readonly<Record<ValueFormat, ValueFormatRules>> = Object.freeze(
  Object.fromEntries(FORMAT_MODULES.map((rules) => [rules.name, rules])) as Record<
    ValueFormat,
    ValueFormatRules
  >,
);

/** The format whose class is named `className` (`Date` → `date-time`), if any. */
export function formatOfClassName(className: string): ValueFormat | undefined {
  return FORMAT_MODULES.find((rules) => rules.className === className)?.name;
}

/** The format whose global constructor `value` is (`Date` → `date-time`), if any. */
export function formatOfConstructor(value: unknown): ValueFormat | undefined {
  return FORMAT_MODULES.find((rules) => Reflect.get(globalThis, rules.className) === value)?.name;
}

export type { ValueFormatRules } from "./value-format.js";
