import { asObject, type ChangeList, code, type JsonObject } from "./surface-change.js";

/** Bounds whose raise narrows what a caller may send. */
const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems"] as const;
/** Bounds whose lowering narrows what a caller may send. */
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems"] as const;

/**
 * Compares what a caller may send as one value: its type, allowed values, bounds, pattern,
 * element and sub-property schemas. Narrowing is breaking (a call that was valid may now be
 * refused); widening is compatible.
 */
export function compareInputSchema(
  path: string,
  before: JsonObject,
  after: JsonObject,
  out: ChangeList,
): void {
  if (typeChanged(path, before, after, "type", out)) return;
  compareEnum(path, before.enum, after.enum, out);
  for (const bound of LOWER_BOUNDS) compareBound(path, bound, before[bound], after[bound], "lower", out);
  for (const bound of UPPER_BOUNDS) compareBound(path, bound, before[bound], after[bound], "upper", out);
  comparePattern(path, before.pattern, after.pattern, out);
  compareItems(path, before, after, out);
  compareProperties(path, before, after, out);
}

/** Records a change of `type` as breaking; true when there was one (nothing else compares then). */
function typeChanged(
  path: string,
  before: JsonObject,
  after: JsonObject,
  what: string,
  out: ChangeList,
): boolean {
  if (typeOf(before) === typeOf(after)) return false;
  out.breaking(`${path}.type`, `${what} changed from ${code(typeOf(before))} to ${code(typeOf(after))}`);
  return true;
}

function typeOf(schema: JsonObject): string {
  return typeof schema.type === "string" ? schema.type : JSON.stringify(schema.type ?? "any");
}

function compareEnum(path: string, before: unknown, after: unknown, out: ChangeList): void {
  const at = `${path}.enum`;
  if (!Array.isArray(before) && !Array.isArray(after)) return;
  if (!Array.isArray(before)) {
    out.breaking(at, `now restricted to ${listOf(after as unknown[])}`);
    return;
  }
  if (!Array.isArray(after)) {
    out.compatible(at, "no longer restricted to a list of values");
    return;
  }
  const key = (value: unknown) => JSON.stringify(value);
  const kept = new Set(after.map(key));
  const had = new Set(before.map(key));
  const removed = before.filter((value) => !kept.has(key(value)));
  const added = after.filter((value) => !had.has(key(value)));
  if (removed.length > 0) out.breaking(at, `enum values removed: ${listOf(removed)}`);
  if (added.length > 0) out.compatible(at, `enum values added: ${listOf(added)}`);
}

function compareBound(
  path: string,
  bound: string,
  before: unknown,
  after: unknown,
  side: "lower" | "upper",
  out: ChangeList,
): void {
  if (before === after) return;
  const at = `${path}.${bound}`;
  if (typeof after !== "number") {
    if (typeof before === "number") out.compatible(at, `${bound} ${code(before)} removed`);
    return;
  }
  if (typeof before !== "number") {
    out.breaking(at, `${bound} ${code(after)} added`);
    return;
  }
  const narrower = side === "lower" ? after > before : after < before;
  const verb = after > before ? "raised" : "lowered";
  out.add(narrower, at, `${bound} ${verb} from ${code(before)} to ${code(after)}`);
}

function comparePattern(path: string, before: unknown, after: unknown, out: ChangeList): void {
  if (before === after) return;
  const at = `${path}.pattern`;
  if (after === undefined) out.compatible(at, `pattern ${code(before)} removed`);
  else if (before === undefined) out.breaking(at, `pattern ${code(after)} added`);
  else out.breaking(at, `pattern changed from ${code(before)} to ${code(after)}`);
}

/** Element schemas: `items`, or the `items_type` shorthand (absent means strings, as the spec says). */
function compareItems(path: string, before: JsonObject, after: JsonObject, out: ChangeList): void {
  if (before.type !== "array") return;
  compareInputSchema(`${path}.items`, itemsOf(before), itemsOf(after), out);
}

function itemsOf(schema: JsonObject): JsonObject {
  if (schema.items !== undefined) return asObject(schema.items);
  return { type: typeof schema.items_type === "string" ? schema.items_type : "string" };
}

/** Sub-properties of an object value: removing one or requiring one is breaking. */
function compareProperties(path: string, before: JsonObject, after: JsonObject, out: ChangeList): void {
  const old = asObject(before.properties);
  const next = asObject(after.properties);
  for (const name of Object.keys(old)) {
    const at = `${path}.properties[${name}]`;
    if (!(name in next)) out.breaking(at, `property ${code(name)} removed`);
    else compareInputSchema(at, asObject(old[name]), asObject(next[name]), out);
  }
  for (const name of Object.keys(next)) {
    if (!(name in old)) out.compatible(`${path}.properties[${name}]`, `property ${code(name)} added`);
  }
  const wasRequired = new Set(stringList(before.required));
  for (const name of stringList(after.required)) {
    if (!wasRequired.has(name)) out.breaking(`${path}.required`, `property ${code(name)} newly required`);
  }
  const nowRequired = new Set(stringList(after.required));
  for (const name of wasRequired) {
    if (!nowRequired.has(name) && name in next) {
      out.compatible(`${path}.required`, `property ${code(name)} no longer required`);
    }
  }
}

/**
 * Compares what a tool returns: a field callers may read that is gone, or whose type
 * changed, is breaking; new fields are compatible.
 */
export function compareOutputSchema(
  path: string,
  before: JsonObject,
  after: JsonObject,
  out: ChangeList,
): void {
  if (typeChanged(path, before, after, "output type", out)) return;
  const old = asObject(before.properties);
  const next = asObject(after.properties);
  for (const name of Object.keys(old)) {
    const at = `${path}.properties[${name}]`;
    if (!(name in next)) out.breaking(at, `output field ${code(name)} removed`);
    else compareOutputSchema(at, asObject(old[name]), asObject(next[name]), out);
  }
  for (const name of Object.keys(next)) {
    if (!(name in old)) out.compatible(`${path}.properties[${name}]`, `output field ${code(name)} added`);
  }
  if (before.type === "array")
    compareOutputSchema(`${path}.items`, asObject(before.items), asObject(after.items), out);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];
}

function listOf(values: readonly unknown[]): string {
  return values.map(code).join(", ");
}
