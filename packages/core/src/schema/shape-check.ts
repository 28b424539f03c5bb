/**
 * A checker compiled once from a {@link Schema}: it walks a JSON value and names the first
 * place that does not fit (`items[1].key must be a string, got number`). It checks and
 * never converts: formats are annotations here, and `target` classes are not built.
 */
import type { Schema } from "./schema.js";
import { firstRepeatedElement, repeatedElementProblem } from "./unique-items.js";

/** Where a value does not fit its schema, and how. */
export interface ShapeIssue {
  /** The place, e.g. `items[1].key`; `""` for the value itself. */
  readonly path: string;
  /** What is wrong there, e.g. `must be a string, got number`. */
  readonly problem: string;
}

/** Checks one value; undefined when it fits. */
export type ShapeCheck = (value: unknown) => ShapeIssue | undefined;

type Check = (value: unknown, path: string) => ShapeIssue | undefined;

const COMPILED = new WeakMap<Schema, ShapeCheck>();

/** The checker of `schema`, compiled on first use and kept for the schema's life. */
export function shapeCheckOf(schema: Schema): ShapeCheck {
  let check = COMPILED.get(schema);
  if (!check) {
    check = compileShape(schema);
    COMPILED.set(schema, check);
  }
  return check;
}

/** Compiles `schema` (with its root `$defs`) into a checker. */
export function compileShape(schema: Schema): ShapeCheck {
  const defs = "type" in schema && schema.type === "object" ? (schema.$defs ?? {}) : {};
  const compiled = new Map<string, Check>();
  const compileRef = (ref: string): Check => {
    const name = ref.slice("#/$defs/".length);
    const def = defs[name];
    if (def === undefined) throw new Error(`schema: ${ref} names no entry of $defs`);
    return (value, path) => {
      let check = compiled.get(name);
      if (!check) {
        check = compileNode(def, compileRef);
        compiled.set(name, check);
      }
      return check(value, path);
    };
  };
  const check = compileNode(schema, compileRef);
  return (value) => check(value, "");
}

function compileNode(schema: Schema, ref: (ref: string) => Check): Check {
  if ("$ref" in schema) return ref(schema.$ref);
  if ("anyOf" in schema) return compileAnyOf(schema.anyOf, ref);
  switch (schema.type) {
    case undefined:
      return () => undefined;
    case "string":
      return compileString(schema);
    case "number":
    case "integer":
      return compileNumber(schema);
    case "boolean":
      return withConst(schema.const, kindCheck("boolean"));
    case "null":
      return kindCheck("null");
    case "array":
      return compileArray(schema, ref);
    case "object":
      return compileObject(schema, ref);
  }
}

function compileAnyOf(options: readonly Schema[], ref: (ref: string) => Check): Check {
  const checks = options.map((option) => compileNode(option, ref));
  const tag = discriminator(options);
  if (tag) return compileTagged(tag, checks);
  const expected = joinOr(options.map(expectedOf));
  return (value, path) => {
    const issues = checks.map((check) => check(value, path));
    if (issues.some((issue) => issue === undefined)) return undefined;
    // One option of the value's own kind: its issue is the useful one (a field deeper down).
    const sameKind = options.flatMap((option, index) =>
      "type" in option && option.type !== undefined && kindOf(value) === jsonKind(option.type) ? [index] : [],
    );
    if (sameKind.length === 1) return issues[sameKind[0]!];
    return { path, problem: `must be ${expected}, got ${kindOf(value)}` };
  };
}

/** A property every option (each an object) requires and fixes with a `const`, e.g. `mode`. */
interface Discriminator {
  readonly key: string;
  readonly values: readonly unknown[];
}

function discriminator(options: readonly Schema[]): Discriminator | undefined {
  const first = options[0];
  if (!first || !("type" in first) || first.type !== "object") return undefined;
  for (const key of first.required ?? []) {
    const values = options.map((option) =>
      "type" in option && option.type === "object" && option.required?.includes(key)
        ? (option.properties?.[key] as { const?: unknown } | undefined)?.const
        : undefined,
    );
    if (values.every((value) => value !== undefined)) return { key, values };
  }
  return undefined;
}

function compileTagged(tag: Discriminator, checks: readonly Check[]): Check {
  const quoted = joinOr(tag.values.map((value) => JSON.stringify(value)));
  return (value, path) => {
    if (kindOf(value) !== "object") return { path, problem: `must be an object, got ${kindOf(value)}` };
    const given = (value as Record<string, unknown>)[tag.key];
    const index = tag.values.indexOf(given);
    if (index < 0) {
      const got = given === undefined ? "" : `, got ${JSON.stringify(given)}`;
      return { path: join(path, tag.key), problem: `must be ${quoted}${got}` };
    }
    return checks[index]!(value, path);
  };
}

function compileString(schema: Extract<Schema, { type: "string" }>): Check {
  const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, "u");
  return (value, path) => {
    if (typeof value !== "string") return { path, problem: `must be a string, got ${kindOf(value)}` };
    const problem = stringValueProblem(schema, value) ?? lengthProblem(schema, [...value].length);
    if (problem !== undefined) return { path, problem };
    if (pattern && !pattern.test(value)) return { path, problem: `must match /${schema.pattern}/` };
    return undefined;
  };
}

function stringValueProblem(schema: Extract<Schema, { type: "string" }>, value: string): string | undefined {
  if (schema.const !== undefined && value !== schema.const) {
    return `must be ${JSON.stringify(schema.const)}, got ${JSON.stringify(value)}`;
  }
  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    return `must be ${joinOr(schema.enum.map((known) => JSON.stringify(known)))}, got ${JSON.stringify(value)}`;
  }
  return undefined;
}

function lengthProblem(schema: Extract<Schema, { type: "string" }>, length: number): string | undefined {
  if (schema.minLength !== undefined && length < schema.minLength) {
    return schema.minLength === 1 ? "must not be empty" : `must have at least ${schema.minLength} characters`;
  }
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    return `must have at most ${schema.maxLength} characters, got ${length}`;
  }
  return undefined;
}

function compileNumber(schema: Extract<Schema, { type: "number" | "integer" }>): Check {
  const integer = schema.type === "integer";
  return (value, path) => {
    if (typeof value !== "number" || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
      return { path, problem: `must be ${integer ? "an integer" : "a number"}, got ${kindOf(value)}` };
    }
    if (schema.const !== undefined && value !== schema.const)
      return { path, problem: `must be ${schema.const}` };
    if (schema.enum !== undefined && !schema.enum.includes(value)) {
      return { path, problem: `must be ${joinOr(schema.enum.map(String))}, got ${value}` };
    }
    const bound = boundProblem(schema, value);
    return bound === undefined ? undefined : { path, problem: `${bound}, got ${value}` };
  };
}

function boundProblem(
  schema: Extract<Schema, { type: "number" | "integer" }>,
  value: number,
): string | undefined {
  if (schema.minimum !== undefined && value < schema.minimum) return `must be ≥ ${schema.minimum}`;
  if (schema.maximum !== undefined && value > schema.maximum) return `must be ≤ ${schema.maximum}`;
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) {
    return `must be > ${schema.exclusiveMinimum}`;
  }
  if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) {
    return `must be < ${schema.exclusiveMaximum}`;
  }
  return undefined;
}

function compileArray(schema: Extract<Schema, { type: "array" }>, ref: (ref: string) => Check): Check {
  const item = schema.items === undefined ? undefined : compileNode(schema.items, ref);
  return (value, path) => {
    if (!Array.isArray(value)) return { path, problem: `must be an array, got ${kindOf(value)}` };
    const problem = countProblem(schema, value.length) ?? uniquenessProblem(schema, value);
    if (problem !== undefined) return { path, problem };
    return item ? firstIssue(value, (element, index) => item(element, `${path}[${index}]`)) : undefined;
  };
}

function countProblem(schema: Extract<Schema, { type: "array" }>, count: number): string | undefined {
  if (schema.minItems !== undefined && count < schema.minItems) {
    return schema.minItems === 1 ? "must not be empty" : `must have at least ${schema.minItems} items`;
  }
  if (schema.maxItems !== undefined && count > schema.maxItems) {
    return `must have at most ${schema.maxItems} items, got ${count}`;
  }
  return undefined;
}

function uniquenessProblem(
  schema: Extract<Schema, { type: "array" }>,
  list: readonly unknown[],
): string | undefined {
  if (schema.uniqueItems !== true) return undefined;
  const repeated = firstRepeatedElement(list);
  return repeated === undefined ? undefined : repeatedElementProblem(repeated);
}

function compileObject(schema: Extract<Schema, { type: "object" }>, ref: (ref: string) => Check): Check {
  const fields = Object.entries(schema.properties ?? {}).map(
    ([name, field]) => [name, compileNode(field, ref)] as const,
  );
  const required = schema.required ?? [];
  const extra = compileExtra(schema, ref);
  return (value, path) => {
    if (kindOf(value) !== "object") return { path, problem: `must be an object, got ${kindOf(value)}` };
    const record = value as Record<string, unknown>;
    const missing = required.find((name) => record[name] === undefined);
    if (missing !== undefined) return { path: join(path, missing), problem: "is required" };
    return (
      firstIssue(fields, ([name, check]) =>
        record[name] === undefined ? undefined : check(record[name], join(path, name)),
      ) ?? extra?.(record, path)
    );
  };
}

/** The check of the keys `properties` does not list, when `additionalProperties` says anything. */
function compileExtra(
  schema: Extract<Schema, { type: "object" }>,
  ref: (ref: string) => Check,
): ((record: Record<string, unknown>, path: string) => ShapeIssue | undefined) | undefined {
  const extra = schema.additionalProperties;
  if (extra === undefined) return undefined;
  const known = new Set(Object.keys(schema.properties ?? {}));
  const check: Check =
    extra === false
      ? (_value, at) => ({ path: at, problem: "is not a known field" })
      : compileNode(extra, ref);
  return (record, path) =>
    firstIssue(Object.entries(record), ([name, field]) =>
      known.has(name) || field === undefined ? undefined : check(field, join(path, name)),
    );
}

/** The first issue `check` finds among `items`. */
function firstIssue<T>(
  items: readonly T[],
  check: (item: T, index: number) => ShapeIssue | undefined,
): ShapeIssue | undefined {
  for (let index = 0; index < items.length; index++) {
    const issue = check(items[index]!, index);
    if (issue) return issue;
  }
  return undefined;
}

function withConst(constant: unknown, check: Check): Check {
  if (constant === undefined) return check;
  return (value, path) =>
    check(value, path) ??
    (value === constant ? undefined : { path, problem: `must be ${JSON.stringify(constant)}` });
}

function kindCheck(kind: "boolean" | "null"): Check {
  return (value, path) =>
    kindOf(value) === kind
      ? undefined
      : { path, problem: `must be ${kind === "null" ? "null" : "a boolean"}, got ${kindOf(value)}` };
}

/** What a schema expects, in words, for a union's message. */
function expectedOf(schema: Schema): string {
  if ("$ref" in schema) return `a ${schema.$ref.slice("#/$defs/".length)}`;
  if ("anyOf" in schema) return joinOr(schema.anyOf.map(expectedOf));
  switch (schema.type) {
    case undefined:
      return "any value";
    case "null":
      return "null";
    case "integer":
    case "array":
    case "object":
      return `an ${schema.type}`;
    default:
      return `a ${schema.type}`;
  }
}

function jsonKind(type: string): string {
  return type === "integer" ? "number" : type;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function join(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}

function joinOr(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? "nothing") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}
