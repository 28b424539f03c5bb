import { canonicalJson } from "@executa/core/internal";
import { asObject, type ChangeList, code, type JsonObject } from "./surface-change.js";

/** Bounds whose raise narrows what a caller may send. */
const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems"] as const;
/** Bounds whose lowering narrows what a caller may send. */
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems"] as const;

/**
 * Compares what a caller may send as one value: its type, allowed values, bounds, pattern,
 * uniqueness of elements, element and sub-property schemas. Narrowing is breaking (a call that was valid may now be
 * refused); widening is compatible.
 */
export function compareInputSchema(
  path: string,
  before: JsonObject,
  after: JsonObject,
  out: ChangeList,
): void {
  if (compareUnion(path, before, after, INPUT, out)) return;
  if (typeChanged(path, before, after, "type", out)) return;
  compareEnum(path, before.enum, after.enum, out);
  for (const bound of LOWER_BOUNDS) compareBound(path, bound, before[bound], after[bound], "lower", out);
  for (const bound of UPPER_BOUNDS) compareBound(path, bound, before[bound], after[bound], "upper", out);
  comparePattern(path, before.pattern, after.pattern, out);
  compareUniqueness(path, before.uniqueItems, after.uniqueItems, out);
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

/** `uniqueItems: true` added refuses lists a caller could send before; removed, it refuses none. */
function compareUniqueness(path: string, before: unknown, after: unknown, out: ChangeList): void {
  const [was, now] = [before === true, after === true];
  if (was === now) return;
  const at = `${path}.uniqueItems`;
  if (now) out.breaking(at, "uniqueItems added: elements must be unique");
  else out.compatible(at, "uniqueItems removed: elements may repeat");
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
  if (compareUnion(path, before, after, OUTPUT, out)) return;
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

/** How a union's change reads on one side of a call. */
interface UnionSide {
  /** Whether a member removed breaks callers (true for arguments: a value they sent is refused). */
  removedBreaks: boolean;
  /** Whether a member added breaks callers (true for results: a value they never handled arrives). */
  addedBreaks: boolean;
  /** Compares two members taken for the same one. */
  compare: (path: string, before: JsonObject, after: JsonObject, out: ChangeList) => void;
}

const INPUT: UnionSide = { removedBreaks: true, addedBreaks: false, compare: compareInputSchema };
const OUTPUT: UnionSide = { removedBreaks: false, addedBreaks: true, compare: compareOutputSchema };

/**
 * Compares the members of an `anyOf` (a schema without one counts as a union of itself) when
 * either side has one; false when neither does. Equal members pair first, then members of a
 * type that each side has once (compared as one value); the rest were removed or added.
 */
function compareUnion(
  path: string,
  before: JsonObject,
  after: JsonObject,
  side: UnionSide,
  out: ChangeList,
): boolean {
  if (!Array.isArray(before.anyOf) && !Array.isArray(after.anyOf)) return false;
  const old = membersOf(before);
  const next = membersOf(after);
  for (const member of [...old]) {
    const text = canonicalJson(member);
    const same = next.findIndex((candidate) => canonicalJson(candidate) === text);
    if (same === -1) continue;
    old.splice(old.indexOf(member), 1);
    next.splice(same, 1);
  }
  const at = `${path}.anyOf`;
  for (const member of [...old]) {
    const type = typeOf(member);
    const counterparts = next.filter((candidate) => typeOf(candidate) === type);
    if (counterparts.length !== 1 || old.filter((other) => typeOf(other) === type).length !== 1) continue;
    side.compare(`${at}[${type}]`, member, counterparts[0] as JsonObject, out);
    old.splice(old.indexOf(member), 1);
    next.splice(next.indexOf(counterparts[0] as JsonObject), 1);
  }
  for (const member of old) out.add(side.removedBreaks, at, `union member ${describe(member)} removed`);
  for (const member of next) out.add(side.addedBreaks, at, `union member ${describe(member)} added`);
  return true;
}

function membersOf(schema: JsonObject): JsonObject[] {
  return Array.isArray(schema.anyOf) ? schema.anyOf.map(asObject) : [schema];
}

/** A member in words: its JSON, keys sorted, cut to a readable length. */
function describe(member: JsonObject): string {
  const text = canonicalJson(member) ?? "";
  return code(text.length > 80 ? `${text.slice(0, 79)}…` : text);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];
}

function listOf(values: readonly unknown[]): string {
  return values.map(code).join(", ");
}
