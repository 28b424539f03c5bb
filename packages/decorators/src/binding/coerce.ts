/**
 * Checks one value against its schema and converts what LLMs commonly send instead. A
 * value of the schema's type is taken as is (`fits` of the parameter-type modules in
 * `@executa/core`); a string in place of another type is read with that type's
 * `fromText` — the rule `executa dev` applies to typed `key=value` arguments too:
 *
 * | schema type | accepted as is | also accepted (coercion) |
 * |---|---|---|
 * | string | a string | — |
 * | integer | an integer number | a string of an integer: `"5"`, `" 5 "` → 5 (not `"5.5"`, `"1e3"`, `""`) |
 * | number | a finite number | a numeric string: `"5.5"` → 5.5, `"1e3"` → 1000 (not `"NaN"`, `"0x10"`) |
 * | boolean | true / false | `"true"` / `"false"`, any letter case (not `"yes"`, `"1"`) |
 * | object | a JSON object | a string holding a JSON object: `'{"a":1}'` |
 * | array | a JSON array | a string holding a JSON array: `'["a","b"]'`; blank text → `[]`; a single element, as text or a value: `"a"` → `["a"]`, `5` → `[5]` |
 *
 * Array elements and known object fields are checked (and coerced) the same way; `enum`
 * values and `minimum` / `maximum` bounds are enforced after coercion, and a formatted
 * string becomes its object (a `date-time` a `Date`, a `uri` a `URL`; or a registered codec's value; see core's codec table). `null` or a missing field counts as absent: its
 * default applies, or it is reported missing when required. Unknown object keys are
 * reported with the expected names.
 */
import {
  DEFAULT_ELEMENT_TYPE,
  PARAMETER_TYPES,
  type ParameterType,
  type ParameterTypeRules,
  type ParamIssue,
} from "@executa/core";
import { codecNamed, type ValueFormat } from "@executa/core/internal";
import type { ArgumentSchema, ItemSchema } from "../model/types.js";
import type { EnumValue } from "../options/argument-options.js";
import { objectFields } from "./dto-fields.js";
import { NestedTooDeepError, stripUnsafeKeys } from "./sanitize.js";

/** What a value is checked against: an argument or an array element. */
export interface ValueSchema {
  type: ParameterType;
  enum?: readonly EnumValue[];
  /** A numeric enum's member names, one per `enum` value: a name sent is its number. */
  enumNames?: readonly string[];
  items?: ItemSchema;
  fields?: readonly ArgumentSchema[];
  dto?: Function;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: ValueFormat;
}

/** `coerce: false` checks strictly (used for declared defaults). */
export interface CoerceOptions {
  coerce: boolean;
}

/** The checked value, or every issue found. */
export type Checked<T = unknown> = { ok: true; value: T } | { ok: false; issues: ParamIssue[] };

/** The element schema of an array that declares none: the spec's list of strings. */
const DEFAULT_ITEMS: ItemSchema = { type: DEFAULT_ELEMENT_TYPE.name };

/** Checks and coerces one value; `path` is the dotted path used in issues. */
export function coerceValue(
  value: unknown,
  schema: ValueSchema,
  path: string,
  options: CoerceOptions,
): Checked {
  const typed = coerceType(namedValue(value, schema), schema, path, options);
  if (!typed.ok) return typed;
  if (schema.enum !== undefined && !schema.enum.includes(typed.value as EnumValue)) {
    return fail(
      path,
      `must be one of ${(schema.enumNames ?? schema.enum).map(show).join(", ")}, got ${describe(value)}`,
      expectedOf(schema),
    );
  }
  if (typeof typed.value === "number") return checkBounds(typed as { ok: true; value: number }, schema, path);
  if (typeof typed.value !== "string") return typed;
  const sized = checkLength(typed as { ok: true; value: string }, schema, path);
  if (sized.ok && schema.format !== undefined) return readFormat(typed.value, schema.format, path);
  return sized;
}

/** A string within the schema's inclusive `minLength` / `maxLength`, counted in characters (code points, as JSON Schema does). */
function checkLength(typed: { ok: true; value: string }, schema: ValueSchema, path: string): Checked {
  const { minLength, maxLength } = schema;
  if (minLength === undefined && maxLength === undefined) return typed;
  // A string has between half and all of its UTF-16 units as code points: count them only
  // when the units alone cannot tell.
  const units = typed.value.length;
  const unsure =
    (maxLength !== undefined && units > maxLength) || (minLength !== undefined && units < 2 * minLength);
  const length = unsure ? codePoints(typed.value) : units;
  if ((minLength !== undefined && length < minLength) || (maxLength !== undefined && length > maxLength)) {
    const range = [
      minLength !== undefined ? `at least ${minLength}` : undefined,
      maxLength !== undefined ? `at most ${maxLength}` : undefined,
    ].filter(Boolean);
    return fail(path, `must be ${range.join(" and ")} characters long, got ${length}`, expectedOf(schema));
  }
  return typed;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** A numeric enum member's name (`"High"`) as its value (2); any other value as it is. */
function namedValue(value: unknown, schema: ValueSchema): unknown {
  if (schema.enumNames === undefined || typeof value !== "string") return value;
  const index = schema.enumNames.indexOf(value.trim());
  return index === -1 ? value : schema.enum?.[index];
}

/** A number within the schema's inclusive `minimum` / `maximum`. */
function checkBounds(typed: { ok: true; value: number }, schema: ValueSchema, path: string): Checked {
  const { value } = typed;
  const { minimum, maximum } = schema;
  if ((minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum)) {
    const range = [
      minimum !== undefined ? `at least ${minimum}` : undefined,
      maximum !== undefined ? `at most ${maximum}` : undefined,
    ].filter(Boolean);
    return fail(path, `must be ${range.join(" and ")}, got ${value}`, expectedOf(schema));
  }
  return typed;
}

/** A formatted string as the object the method receives (a `Date`, a `URL`). */
function readFormat(text: string, format: ValueFormat, path: string): Checked {
  const rules = codecNamed(format);
  if (rules === undefined) return fail(path, `no codec "${format}" is registered`, `string (${format})`);
  const value = rules.decode(text);
  if (value === undefined) return fail(path, `expected ${rules.noun}, got ${describe(text)}`, rules.expected);
  return ok(value);
}

/**
 * Checks an object against its known fields: unknown keys, missing required fields,
 * each field's value; fills defaults (fresh copies, so a handler mutating a default
 * cannot change the next invoke's). Absent optional fields stay absent.
 */
export function checkFields(
  fields: readonly ArgumentSchema[],
  input: Record<string, unknown>,
  path: string,
  options: CoerceOptions,
): Checked<Record<string, unknown>> {
  const issues = unknownKeyIssues(fields, input, path);
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = Object.hasOwn(input, field.name) ? input[field.name] : undefined;
    const checked = fieldValue(field, raw, join(path, field.name), options);
    if (checked === undefined) continue;
    if (checked.ok) out[field.name] = checked.value;
    else appendAll(issues, checked.issues);
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: out };
}

/** An issue for each key of `input` that no field names. */
function unknownKeyIssues(fields: readonly ArgumentSchema[], input: Record<string, unknown>, path: string) {
  const issues: ParamIssue[] = [];
  const { known, expected } = fieldNamesOf(fields);
  for (const key of Object.keys(input)) {
    if (known.has(key)) continue;
    issues.push({ path: join(path, key), message: `unknown argument; expected: ${expected}`, expected });
  }
  return issues;
}

/** One field's checked value, or `undefined` for an absent optional field without a default (it stays absent). */
function fieldValue(
  field: ArgumentSchema,
  raw: unknown,
  path: string,
  options: CoerceOptions,
): Checked | undefined {
  if (raw !== undefined && raw !== null) return coerceValue(raw, field, path, options);
  // A formatted default is text in the manifest and an object for the method, like a sent value.
  if (field.hasDefault)
    return field.format
      ? coerceValue(field.default, field, path, options)
      : ok(structuredClone(field.default));
  if (field.required) return fail(path, "is required", expectedOf(field));
  return undefined;
}

interface FieldNames {
  known: ReadonlySet<string>;
  /** The names as listed in an "unknown argument" issue. */
  expected: string;
}

// Schemas are built once per tool and never change: their name sets are made on the first
// invoke, not on every one.
const fieldNames = new WeakMap<readonly ArgumentSchema[], FieldNames>();

function fieldNamesOf(fields: readonly ArgumentSchema[]): FieldNames {
  let names = fieldNames.get(fields);
  if (names === undefined) {
    const list = fields.map((field) => field.name);
    names = { known: new Set(list), expected: list.length > 0 ? list.join(", ") : "(none)" };
    fieldNames.set(fields, names);
  }
  return names;
}

function coerceType(value: unknown, schema: ValueSchema, path: string, options: CoerceOptions): Checked {
  const rules = PARAMETER_TYPES[schema.type];
  const typed = rules.fits(value) ? ok(value) : coerceOtherValue(value, schema, rules, path, options);
  if (!typed.ok) return typed;
  if (schema.type === "array") return checkElements(typed.value as unknown[], schema, path, options);
  const fields = schema.type === "object" ? objectFields(schema) : undefined;
  if (fields) return checkFields(fields, typed.value as Record<string, unknown>, path, options);
  return typed;
}

/** A value not of the schema's type: read from text, or (for an array) taken as its one element. */
function coerceOtherValue(
  value: unknown,
  schema: ValueSchema,
  rules: ParameterTypeRules,
  path: string,
  options: CoerceOptions,
): Checked {
  if (!options.coerce) return mismatch(path, schema, value);
  if (typeof value === "string") return readText(value, schema, rules, path);
  if (schema.type === "array") {
    // A single element where a list was expected: wrap it, but report at the argument itself.
    const single = coerceValue(value, schema.items ?? DEFAULT_ITEMS, path, options);
    return single.ok ? ok([single.value]) : mismatch(path, schema, value);
  }
  return mismatch(path, schema, value);
}

/** A string read as the schema's type; JSON it holds is sanitized like the arguments themselves. */
function readText(text: string, schema: ValueSchema, rules: ParameterTypeRules, path: string): Checked {
  const element = PARAMETER_TYPES[(schema.items ?? DEFAULT_ITEMS).type];
  const reading = rules.fromText(text, element);
  return reading.ok ? stripParsed(reading.value, path, schema) : mismatch(path, schema, text);
}

function checkElements(list: readonly unknown[], schema: ValueSchema, path: string, options: CoerceOptions) {
  const items = schema.items ?? DEFAULT_ITEMS;
  const issues: ParamIssue[] = [];
  const out: unknown[] = [];
  list.forEach((element, index) => {
    const checked = coerceValue(element, items, join(path, String(index)), options);
    if (checked.ok) out.push(checked.value);
    else appendAll(issues, checked.issues);
  });
  return issues.length > 0 ? { ok: false as const, issues } : ok(out);
}

/** How the expected type reads in messages: `integer`, `array of string`, `one of "a", "b"`. */
export function expectedOf(schema: ValueSchema): string {
  if (schema.enumNames) return `enum name, one of ${schema.enumNames.map(show).join(", ")}`;
  if (schema.enum) return `${schema.type}, one of ${schema.enum.map(show).join(", ")}`;
  if (schema.format !== undefined) return codecNamed(schema.format)?.expected ?? `string (${schema.format})`;
  const range = rangeOf(schema);
  if (range !== undefined) return `${schema.type} ${range}`;
  if (schema.type === "array") return `array of ${expectedOf(schema.items ?? DEFAULT_ITEMS)}`;
  return schema.type;
}

function rangeOf({ minimum, maximum }: ValueSchema): string | undefined {
  if (minimum !== undefined && maximum !== undefined) return `from ${minimum} to ${maximum}`;
  if (minimum !== undefined) return `>= ${minimum}`;
  if (maximum !== undefined) return `<= ${maximum}`;
  return undefined;
}

/** Describes a received value for messages: `the string "5.5"`, `null`, `an object`. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case "number":
    case "boolean":
      return `the ${typeof value} ${String(value)}`;
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}

function mismatch(path: string, schema: ValueSchema, value: unknown): Checked {
  const expected = expectedOf(schema);
  const article = /^[aeiou]/.test(expected) ? "an" : "a";
  return fail(path, `expected ${article} ${expected}, got ${describe(value)}`, expected);
}

function fail(path: string, message: string, expected: string): Checked {
  return { ok: false, issues: [{ path, message, expected }] };
}

function ok<T>(value: T): Checked<T> {
  return { ok: true, value };
}

function show(value: EnumValue): string {
  return JSON.stringify(value);
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

/** JSON parsed from a string argument, sanitized like the arguments themselves and as depth-bounded. */
function stripParsed(parsed: unknown, path: string, schema: ValueSchema): Checked {
  try {
    return ok(stripUnsafeKeys(parsed));
  } catch (error) {
    if (!(error instanceof NestedTooDeepError)) throw error;
    return fail(path, `${error.message} (in a JSON string)`, expectedOf(schema));
  }
}

// Not `push(...more)`: spreading ~125 000 issues exceeds the call stack.
function appendAll<T>(target: T[], more: readonly T[]): void {
  for (const item of more) target.push(item);
}
