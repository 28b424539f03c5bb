/**
 * Checks one value against its schema and converts what LLMs commonly send instead:
 *
 * | schema type | accepted as is | also accepted (coercion) |
 * |---|---|---|
 * | string | a string | — |
 * | integer | an integer number | a string of an integer: `"5"` → 5 (not `"5.5"`, not `""`) |
 * | number | a finite number | a numeric string: `"5.5"` → 5.5, `"1e3"` → 1000 |
 * | boolean | true / false | `"true"` / `"false"` |
 * | object | a JSON object | a string holding a JSON object: `'{"a":1}'` |
 * | array | a JSON array | a string holding a JSON array: `'["a","b"]'`; a single element: `"a"` → `["a"]` |
 *
 * Array elements and known object fields are checked (and coerced) the same way; `enum`
 * values are enforced after coercion. `null` or a missing field counts as absent: its
 * default applies, or it is reported missing when required. Unknown object keys are
 * reported with the expected names.
 */
import type { ParameterType, ParamIssue } from "@executa/core";
import type { ArgumentSchema, ItemSchema } from "../model/types.js";
import type { EnumValue } from "../options/argument-options.js";
import { isPlainObject, NestedTooDeepError, stripUnsafeKeys } from "./sanitize.js";

/** What a value is checked against: an argument or an array element. */
export interface ValueSchema {
  type: ParameterType;
  enum?: readonly EnumValue[];
  items?: ItemSchema;
  fields?: readonly ArgumentSchema[];
}

/** `coerce: false` checks strictly (used for declared defaults). */
export interface CoerceOptions {
  coerce: boolean;
}

/** The checked value, or every issue found. */
export type Checked<T = unknown> = { ok: true; value: T } | { ok: false; issues: ParamIssue[] };

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Checks and coerces one value; `path` is the dotted path used in issues. */
export function coerceValue(
  value: unknown,
  schema: ValueSchema,
  path: string,
  options: CoerceOptions,
): Checked {
  const typed = coerceType(value, schema, path, options);
  if (!typed.ok || schema.enum === undefined) return typed;
  if (schema.enum.includes(typed.value as EnumValue)) return typed;
  return fail(
    path,
    `must be one of ${schema.enum.map(show).join(", ")}, got ${describe(value)}`,
    expectedOf(schema),
  );
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
  const issues: ParamIssue[] = [];
  const { known, expected } = fieldNamesOf(fields);
  for (const key of Object.keys(input)) {
    if (known.has(key)) continue;
    issues.push({ path: join(path, key), message: `unknown argument; expected: ${expected}`, expected });
  }
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const fieldPath = join(path, field.name);
    const raw = Object.hasOwn(input, field.name) ? input[field.name] : undefined;
    if (raw === undefined || raw === null) {
      if (field.hasDefault) out[field.name] = structuredClone(field.default);
      else if (field.required)
        issues.push({ path: fieldPath, message: "is required", expected: expectedOf(field) });
      continue;
    }
    const checked = coerceValue(raw, field, fieldPath, options);
    if (checked.ok) out[field.name] = checked.value;
    else appendAll(issues, checked.issues);
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: out };
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
  const { coerce } = options;
  switch (schema.type) {
    case "string":
      return typeof value === "string" ? ok(value) : mismatch(path, schema, value);
    case "integer":
      if (typeof value === "number" && Number.isInteger(value)) return ok(value);
      if (coerce && typeof value === "string" && INTEGER.test(value.trim())) {
        const parsed = Number(value.trim());
        if (Number.isSafeInteger(parsed)) return ok(parsed);
      }
      return mismatch(path, schema, value);
    case "number":
      if (typeof value === "number" && Number.isFinite(value)) return ok(value);
      if (coerce && typeof value === "string" && NUMBER.test(value.trim())) {
        const parsed = Number(value.trim());
        if (Number.isFinite(parsed)) return ok(parsed);
      }
      return mismatch(path, schema, value);
    case "boolean":
      if (typeof value === "boolean") return ok(value);
      if (coerce && value === "true") return ok(true);
      if (coerce && value === "false") return ok(false);
      return mismatch(path, schema, value);
    case "object":
      return coerceObject(value, schema, path, options);
    case "array":
      return coerceArray(value, schema, path, options);
  }
}

function coerceObject(value: unknown, schema: ValueSchema, path: string, options: CoerceOptions): Checked {
  let object = value;
  if (options.coerce && typeof value === "string" && value.trimStart().startsWith("{")) {
    const parsed = parseJson(value);
    if (isPlainObject(parsed)) {
      const stripped = stripParsed(parsed, path, schema);
      if (!stripped.ok) return stripped;
      object = stripped.value;
    }
  }
  if (!isPlainObject(object)) return mismatch(path, schema, value);
  return schema.fields ? checkFields(schema.fields, object, path, options) : ok(object);
}

function coerceArray(value: unknown, schema: ValueSchema, path: string, options: CoerceOptions): Checked {
  const items: ItemSchema = schema.items ?? { type: "string" };
  let list: unknown[] | undefined = Array.isArray(value) ? value : undefined;
  if (!list && options.coerce && typeof value === "string" && value.trimStart().startsWith("[")) {
    const parsed = parseJson(value);
    if (Array.isArray(parsed)) {
      const stripped = stripParsed(parsed, path, schema);
      if (!stripped.ok) return stripped;
      list = stripped.value as unknown[];
    }
  }
  if (!list) {
    if (!options.coerce) return mismatch(path, schema, value);
    // A single element where a list was expected: wrap it, but report at the argument itself.
    const single = coerceValue(value, items, path, options);
    return single.ok ? ok([single.value]) : mismatch(path, schema, value);
  }
  const issues: ParamIssue[] = [];
  const out: unknown[] = [];
  list.forEach((element, index) => {
    const checked = coerceValue(element, items, join(path, String(index)), options);
    if (checked.ok) out.push(checked.value);
    else appendAll(issues, checked.issues);
  });
  return issues.length > 0 ? { ok: false, issues } : ok(out);
}

/** How the expected type reads in messages: `integer`, `array of string`, `one of "a", "b"`. */
export function expectedOf(schema: ValueSchema): string {
  if (schema.enum) return `${schema.type}, one of ${schema.enum.map(show).join(", ")}`;
  if (schema.type === "array") return `array of ${expectedOf(schema.items ?? { type: "string" })}`;
  return schema.type;
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
