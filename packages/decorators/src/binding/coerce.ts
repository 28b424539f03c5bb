/**
 * The checker and LLM-tolerant coercer of a schema value, compiled once per schema (a
 * tool's input, at resolve time) and run at every invoke. A value of the schema's type is
 * taken as is (`fits` of the parameter-type modules in `@executa/core`); a string in place
 * of another type is read with that type's `fromText` — the rule `executa dev` applies to
 * typed `key=value` arguments too:
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
 * Array elements and known object fields are checked (and coerced) the same way, at every
 * depth (a recursive DTO's `$ref` included); `enum` values (a numeric enum's member names
 * too), `minimum` / `maximum` bounds, `minLength` / `maxLength` and `uniqueItems` (elements
 * compared as JSON values) are enforced after coercion, and a formatted string becomes its object (a `date-time` a `Date`, a `uri` a
 * `URL`; or a registered codec's value; see core's codec table), unless `decodeFormats` is
 * off (a Standard Schema tool: its library expects the string, checked by the codec all the
 * same); a format without a codec is an annotation only. `null` or a missing field counts as
 * absent: its default applies, or it is reported missing when required. Unknown object keys
 * are reported with the expected names.
 */
import {
  DEFAULT_ELEMENT_TYPE,
  type ObjectTypeSchema,
  PARAMETER_TYPES,
  type ParameterTypeRules,
  type ParamIssue,
  type RefSchema,
  type Schema,
} from "@executa/core";
import { codecNamed, firstRepeatedElement, repeatedElementProblem } from "@executa/core/internal";
import { NestedTooDeepError, stripUnsafeKeys } from "./sanitize.js";

/** `coerce: false` checks strictly (used for declared defaults and structured answers). */
export interface CoerceOptions {
  coerce: boolean;
  /**
   * `false` leaves a string whose `format` names a registered codec as the checked string
   * instead of its decoded object, for a validator that expects the JSON text there (a
   * Standard Schema library). Default `true`.
   */
  decodeFormats?: boolean;
}

/** The checked value, or every issue found. */
export type Checked<T = unknown> = { ok: true; value: T } | { ok: false; issues: ParamIssue[] };

/** Checks and coerces an object against a compiled object schema. */
export type ObjectChecker = (
  input: Record<string, unknown>,
  options: CoerceOptions,
) => Checked<Record<string, unknown>>;

/** One invoke's state: whether to coerce, whether to decode formats, and the issues found so far. */
interface Run {
  readonly coerce: boolean;
  readonly decodeFormats: boolean;
  issues: ParamIssue[] | undefined;
}

/** Returned by a node for a value that does not fit; its issues are in the run. */
const FAILED: unique symbol = Symbol("failed");
type Result = unknown;

/** A compiled schema node: the checked value, or `FAILED` with issues added to `run`. */
type Node = (value: unknown, path: string, run: Run) => Result;

/** A compiled object's fields, for the check of an object (the root input included). */
type Fields = (
  input: Record<string, unknown>,
  path: string,
  run: Run,
) => Record<string, unknown> | typeof FAILED;

/** The `#/$defs/…` entries of a root schema, compiled on first use (they may refer to themselves). */
class Definitions {
  private readonly compiled = new Map<string, { node?: Node; schema: Schema }>();

  constructor(private readonly defs: Readonly<Record<string, Schema>>) {}

  /** The schema a `$ref` names (followed through references to references). */
  resolve(schema: Schema): Exclude<Schema, RefSchema> {
    let current = schema;
    for (let hops = 0; "$ref" in current; hops++) {
      const def = this.defs[refName(current.$ref)];
      if (def === undefined || hops > 100)
        throw new Error(`schema: ${current.$ref} names no schema in $defs`);
      current = def;
    }
    return current as Exclude<Schema, RefSchema>;
  }

  /** A node that runs the compiled entry `ref` names, compiling it when first reached. */
  refer(ref: string): Node {
    const name = refName(ref);
    let entry = this.compiled.get(name);
    if (entry === undefined) {
      entry = { schema: this.resolve({ $ref: ref as `#/$defs/${string}` }) };
      this.compiled.set(name, entry);
    }
    const holder = entry;
    return (value, path, run) => {
      holder.node ??= compileNode(holder.schema, this);
      return holder.node(value, path, run);
    };
  }
}

const NO_DEFS = new Definitions({});

function refName(ref: string): string {
  return ref.slice("#/$defs/".length);
}

const objectCheckers = new WeakMap<ObjectTypeSchema, ObjectChecker>();

/**
 * The checker of an object schema (a tool's input, a DTO), with its root `$defs`, compiled
 * on first use and kept for the schema's life.
 */
export function objectCheckerOf(schema: ObjectTypeSchema): ObjectChecker {
  let checker = objectCheckers.get(schema);
  if (checker === undefined) {
    const fields = compileFields(schema, new Definitions(schema.$defs ?? {}));
    checker = (input, options) => {
      const run = runOf(options);
      const value = fields(input, "", run);
      return value === FAILED || run.issues !== undefined
        ? { ok: false, issues: run.issues ?? [] }
        : { ok: true, value };
    };
    objectCheckers.set(schema, checker);
  }
  return checker;
}

const valueNodes = new WeakMap<Schema, Node>();

/**
 * Checks and coerces one value; `path` is the dotted path used in issues. `schema` is
 * compiled on first use; a `$ref` resolves against `root`'s `$defs`.
 */
export function coerceValue(
  value: unknown,
  schema: Schema,
  path: string,
  options: CoerceOptions,
  root?: ObjectTypeSchema,
): Checked {
  let node = valueNodes.get(schema);
  if (node === undefined) {
    node = compileNode(schema, root?.$defs ? new Definitions(root.$defs) : NO_DEFS);
    valueNodes.set(schema, node);
  }
  const run = runOf(options);
  const checked = node(value, path, run);
  return checked === FAILED || run.issues !== undefined
    ? { ok: false, issues: run.issues ?? [] }
    : { ok: true, value: checked };
}

function runOf(options: CoerceOptions): Run {
  return { coerce: options.coerce, decodeFormats: options.decodeFormats ?? true, issues: undefined };
}

function compileNode(schema: Schema, defs: Definitions): Node {
  if ("$ref" in schema) return defs.refer(schema.$ref);
  if ("anyOf" in schema) return compileAnyOf(schema, defs);
  if (schema.type === undefined || schema.type === "null")
    return schema.type === "null" ? compileNull() : (value) => value;
  const rules = PARAMETER_TYPES[schema.type as keyof typeof PARAMETER_TYPES] as
    | ParameterTypeRules
    | undefined;
  if (rules === undefined) throw new Error(`schema: no parameter type "${schema.type}"`);
  const expected = expectedIn(schema, defs);
  const typed = compileTyped(schema, rules, expected, defs);
  const finish = compileFacets(schema, expected);
  const names = "enumNames" in schema ? schema.enumNames : undefined;
  const values = "enum" in schema ? (schema.enum as readonly unknown[] | undefined) : undefined;
  if (finish === undefined && names === undefined) return typed;
  return (value, path, run) => {
    let given = value;
    if (names !== undefined && typeof value === "string") {
      const index = names.indexOf(value.trim());
      if (index !== -1) given = values?.[index];
    }
    const checked = typed(given, path, run);
    if (checked === FAILED || finish === undefined) return checked;
    return finish(checked, value, path, run);
  };
}

/** The value as its schema's type: as is when it fits, else coerced; then its elements or fields. */
function compileTyped(schema: Schema, rules: ParameterTypeRules, expected: string, defs: Definitions): Node {
  const inner = compileInner(schema, expected, defs);
  const other = compileOther(schema, rules, expected, defs);
  const { fits } = rules;
  return (value, path, run) => {
    const typed = fits(value) ? value : other(value, path, run);
    if (typed === FAILED || inner === undefined) return typed;
    return inner(typed, path, run);
  };
}

/** The check of an array's elements (and their uniqueness) or an object's known fields, if the schema has either. */
function compileInner(schema: Schema, expected: string, defs: Definitions): Node | undefined {
  if (!("type" in schema)) return undefined;
  if (schema.type === "array") {
    const items = compileNode(schema.items ?? DEFAULT_ELEMENT_TYPE.schema, defs);
    if (schema.uniqueItems !== true)
      return (list, path, run) => checkElements(list as unknown[], items, path, run);
    return (list, path, run) => {
      const checked = checkElements(list as unknown[], items, path, run);
      return checked === FAILED ? checked : checkUnique(checked as unknown[], path, expected, run);
    };
  }
  if (schema.type === "object" && schema.properties !== undefined) {
    const fields = compileFields(schema, defs);
    return (value, path, run) => fields(value as Record<string, unknown>, path, run);
  }
  return undefined;
}

/** A value not of the schema's type: read from text, or (for an array) taken as its one element. */
function compileOther(schema: Schema, rules: ParameterTypeRules, expected: string, defs: Definitions): Node {
  const mismatch = mismatchOf(expected);
  const element =
    "type" in schema && schema.type === "array"
      ? elementRules(defs.resolve(schema.items ?? DEFAULT_ELEMENT_TYPE.schema))
      : undefined;
  let single: Node | undefined;
  return (value, path, run) => {
    if (!run.coerce) return mismatch(value, path, run);
    if (typeof value === "string") {
      const reading = rules.fromText(value, element);
      return reading.ok ? stripParsed(reading.value, path, expected, run) : mismatch(value, path, run);
    }
    if (element === undefined || !("type" in schema) || schema.type !== "array")
      return mismatch(value, path, run);
    // A single element where a list was expected: wrap it, but report at the argument itself.
    single ??= compileNode(schema.items ?? DEFAULT_ELEMENT_TYPE.schema, defs);
    const probe: Run = { coerce: true, decodeFormats: run.decodeFormats, issues: undefined };
    const checked = single(value, path, probe);
    return checked === FAILED ? mismatch(value, path, run) : [checked];
  };
}

function elementRules(items: Schema): ParameterTypeRules {
  const type = "type" in items && items.type !== undefined ? items.type : "object";
  return (PARAMETER_TYPES as Readonly<Record<string, ParameterTypeRules>>)[type] ?? DEFAULT_ELEMENT_TYPE;
}

type Finish = (typed: unknown, given: unknown, path: string, run: Run) => Result;

/** What is checked once the value has its type: enum, bounds, length, format. */
function compileFacets(schema: Schema, expected: string): Finish | undefined {
  const values = "enum" in schema ? (schema.enum as readonly unknown[] | undefined) : undefined;
  const shown = "enumNames" in schema && schema.enumNames !== undefined ? schema.enumNames : values;
  const numeric = "minimum" in schema || "maximum" in schema ? (schema as NumericFacts) : undefined;
  const text = "minLength" in schema || "maxLength" in schema ? (schema as LengthFacts) : undefined;
  const format = "format" in schema ? schema.format : undefined;
  if (values === undefined && numeric === undefined && text === undefined && format === undefined)
    return undefined;
  const oneOf = shown?.map((entry) => JSON.stringify(entry)).join(", ");
  return (typed, given, path, run) => {
    if (values !== undefined && !values.includes(typed))
      return fail(run, path, `must be one of ${oneOf}, got ${describe(given)}`, expected);
    if (typeof typed === "number")
      return numeric === undefined ? typed : checkBounds(typed, numeric, path, expected, run);
    if (typeof typed !== "string") return typed;
    if (text !== undefined && checkLength(typed, text, path, expected, run) === FAILED) return FAILED;
    return format === undefined ? typed : readFormat(typed, format, path, run);
  };
}

type NumericFacts = { minimum?: number; maximum?: number };
type LengthFacts = { minLength?: number; maxLength?: number };

/** A number within the schema's inclusive `minimum` / `maximum`. */
function checkBounds(
  value: number,
  { minimum, maximum }: NumericFacts,
  path: string,
  expected: string,
  run: Run,
) {
  if ((minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum)) {
    const range = [
      minimum !== undefined ? `at least ${minimum}` : undefined,
      maximum !== undefined ? `at most ${maximum}` : undefined,
    ].filter(Boolean);
    return fail(run, path, `must be ${range.join(" and ")}, got ${value}`, expected);
  }
  return value;
}

/** A string within the schema's inclusive `minLength` / `maxLength`, counted in characters (code points, as JSON Schema does). */
function checkLength(
  text: string,
  { minLength, maxLength }: LengthFacts,
  path: string,
  expected: string,
  run: Run,
) {
  // A string has between half and all of its UTF-16 units as code points: count them only
  // when the units alone cannot tell.
  const units = text.length;
  const unsure =
    (maxLength !== undefined && units > maxLength) || (minLength !== undefined && units < 2 * minLength);
  const length = unsure ? codePoints(text) : units;
  if ((minLength !== undefined && length < minLength) || (maxLength !== undefined && length > maxLength)) {
    const range = [
      minLength !== undefined ? `at least ${minLength}` : undefined,
      maxLength !== undefined ? `at most ${maxLength}` : undefined,
    ].filter(Boolean);
    return fail(run, path, `must be ${range.join(" and ")} characters long, got ${length}`, expected);
  }
  return text;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * A formatted string as the object the method receives (a `Date`, a `URL`), or the string
 * itself, once its codec reads it, when the run does not decode formats. A format no
 * codec is registered for (`email`, `uuid`) is a JSON Schema annotation: the string as it is
 * (the rule behind it, e.g. class-validator's `@IsEmail()`, checks it).
 */
function readFormat(text: string, format: string, path: string, run: Run): Result {
  // Looked up per value: an author may register a codec after the tool was resolved.
  const codec = codecNamed(format);
  if (codec === undefined) return text;
  const value = codec.decode(text);
  if (value === undefined)
    return fail(run, path, `expected ${codec.noun}, got ${describe(text)}`, codec.expected);
  return run.decodeFormats ? value : text;
}

/** One compiled field of an object. */
interface Field {
  name: string;
  node: Node;
  required: boolean;
  hasDefault: boolean;
  default: unknown;
  /** A formatted default is text in the manifest and an object for the method, like a sent value. */
  decodeDefault: boolean;
  expected: string;
}

/**
 * The check of an object's known fields: unknown keys, missing required fields, each
 * field's value; fills defaults (fresh copies, so a handler mutating a default cannot
 * change the next invoke's). Absent optional fields stay absent.
 */
function compileFields(schema: ObjectTypeSchema, defs: Definitions): Fields {
  const required = new Set(schema.required);
  const fields: Field[] = Object.entries(schema.properties ?? {}).map(([name, field]) => ({
    name,
    node: compileNode(field, defs),
    required: required.has(name),
    hasDefault: "default" in field,
    default: field.default,
    decodeDefault: (defs.resolve(field) as { format?: string }).format !== undefined,
    expected: expectedIn(field, defs),
  }));
  const known = new Set(fields.map((field) => field.name));
  const expected = known.size > 0 ? [...known].join(", ") : "(none)";
  const refuseUnknown = schema.additionalProperties === false;
  return (input, path, run) => {
    if (refuseUnknown) refuseUnknownKeys(input, known, expected, path, run);
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      const value = fieldValue(field, input, path, run);
      if (value !== FAILED && value !== ABSENT) out[field.name] = value;
    }
    return run.issues === undefined ? out : FAILED;
  };
}

/** An issue for each key of `input` that no field names. */
function refuseUnknownKeys(
  input: Record<string, unknown>,
  known: ReadonlySet<string>,
  expected: string,
  path: string,
  run: Run,
): void {
  const kind = path === "" ? "unknown_argument" : "unknown_property";
  for (const key of Object.keys(input)) {
    if (known.has(key)) continue;
    addIssue(run, {
      path: join(path, key),
      message: `unknown argument; expected: ${expected}`,
      expected,
      kind,
    });
  }
}

/** An absent optional field without a default: it stays absent. */
const ABSENT: unique symbol = Symbol("absent");

/** One field's checked value: as sent, else its default, else missing or absent. */
function fieldValue(field: Field, input: Record<string, unknown>, parent: string, run: Run): Result {
  const raw = Object.hasOwn(input, field.name) ? input[field.name] : undefined;
  const path = parent === "" ? field.name : `${parent}.${field.name}`;
  if (raw !== undefined && raw !== null) return field.node(raw, path, run);
  if (field.hasDefault)
    return field.decodeDefault ? field.node(field.default, path, run) : structuredClone(field.default);
  if (field.required) return fail(run, path, "is required", field.expected);
  return ABSENT;
}

function checkElements(list: readonly unknown[], items: Node, path: string, run: Run): Result {
  const out = new Array<unknown>(list.length);
  let failed = false;
  for (let index = 0; index < list.length; index++) {
    const checked = items(list[index], join(path, String(index)), run);
    if (checked === FAILED) failed = true;
    else out[index] = checked;
  }
  return failed ? FAILED : out;
}

/** A list without two elements equal as JSON values (`uniqueItems`), the first repeat named. */
function checkUnique(list: unknown[], path: string, expected: string, run: Run): Result {
  const repeated = firstRepeatedElement(list);
  return repeated === undefined ? list : fail(run, path, repeatedElementProblem(repeated), expected);
}

/** The first member the value fits strictly, else the first it fits once coerced. */
function compileAnyOf(schema: Extract<Schema, { anyOf: unknown }>, defs: Definitions): Node {
  const members = schema.anyOf.map((member) => compileNode(member, defs));
  const expected = schema.anyOf.map((member) => expectedIn(member, defs)).join(" or ");
  const mismatch = mismatchOf(expected);
  return (value, path, run) => {
    for (const coerce of run.coerce ? [false, true] : [false]) {
      for (const member of members) {
        const probe: Run = { coerce, decodeFormats: run.decodeFormats, issues: undefined };
        const checked = member(value, path, probe);
        if (checked !== FAILED) return checked;
      }
    }
    return mismatch(value, path, run);
  };
}

function compileNull(): Node {
  const mismatch = mismatchOf("null");
  return (value, path, run) => (value === null ? null : mismatch(value, path, run));
}

/** How the expected type reads in messages: `integer`, `array of string`, `one of "a", "b"`; a `$ref` resolves against `root`'s `$defs`. */
export function expectedOf(schema: Schema, root?: ObjectTypeSchema): string {
  return expectedIn(schema, root?.$defs ? new Definitions(root.$defs) : NO_DEFS);
}

function expectedIn(schema: Schema, defs: Definitions): string {
  const resolved = defs.resolve(schema);
  if ("anyOf" in resolved) return resolved.anyOf.map((member) => expectedIn(member, defs)).join(" or ");
  const type = resolved.type ?? "any value";
  if ("enumNames" in resolved && resolved.enumNames)
    return `enum name, one of ${resolved.enumNames.map(show).join(", ")}`;
  if ("enum" in resolved && resolved.enum) return `${type}, one of ${resolved.enum.map(show).join(", ")}`;
  if ("format" in resolved && resolved.format !== undefined)
    return codecNamed(resolved.format)?.expected ?? `string (${resolved.format})`;
  const range =
    "minimum" in resolved || "maximum" in resolved ? rangeOf(resolved as NumericFacts) : undefined;
  if (range !== undefined) return `${type} ${range}`;
  if (resolved.type === "array")
    return `array of ${expectedIn(resolved.items ?? DEFAULT_ELEMENT_TYPE.schema, defs)}`;
  return type;
}

function rangeOf({ minimum, maximum }: NumericFacts): string | undefined {
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

function mismatchOf(expected: string): (value: unknown, path: string, run: Run) => typeof FAILED {
  const article = /^[aeiou]/.test(expected) ? "an" : "a";
  return (value, path, run) =>
    fail(run, path, `expected ${article} ${expected}, got ${describe(value)}`, expected);
}

function fail(run: Run, path: string, message: string, expected: string): typeof FAILED {
  addIssue(run, { path, message, expected });
  return FAILED;
}

function addIssue(run: Run, issue: ParamIssue): void {
  if (run.issues === undefined) run.issues = [issue];
  else run.issues.push(issue);
}

function show(value: unknown): string {
  return JSON.stringify(value);
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

/** JSON parsed from a string argument, sanitized like the arguments themselves and as depth-bounded. */
function stripParsed(parsed: unknown, path: string, expected: string, run: Run): Result {
  try {
    return stripUnsafeKeys(parsed);
  } catch (error) {
    if (!(error instanceof NestedTooDeepError)) throw error;
    return fail(run, path, `${error.message} (in a JSON string)`, expected);
  }
}
