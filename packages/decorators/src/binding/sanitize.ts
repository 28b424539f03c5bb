import { MAX_ARGUMENT_DEPTH } from "@executa/core";

/** Keys that can reach an object's prototype; dropped from every argument object, at every depth. */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Whether a value is a plain JSON object (not null, not an array, not a class instance). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Thrown by {@link stripUnsafeKeys} for data nested deeper than it was allowed to go. */
export class NestedTooDeepError extends Error {
  override readonly name = "NestedTooDeepError";
  constructor(readonly maxDepth: number) {
    super(`nested deeper than ${maxDepth} levels`);
  }
}

/**
 * A deep copy of JSON data without `__proto__`, `constructor` and `prototype` keys, made
 * before anything else reads the arguments (`JSON.parse` creates `__proto__` as an own key,
 * which a later spread or merge would turn into a prototype change).
 *
 * Throws {@link NestedTooDeepError} when objects and arrays nest more than `maxDepth`
 * levels (the value itself is level 1): the copy recurses, and so do class-transformer
 * and class-validator later, so unbounded depth would overflow the stack.
 */
export function stripUnsafeKeys(value: unknown, maxDepth: number = MAX_ARGUMENT_DEPTH): unknown {
  return strip(value, maxDepth, maxDepth);
}

function strip(value: unknown, left: number, maxDepth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    if (left <= 0) throw new NestedTooDeepError(maxDepth);
    const copy = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) copy[index] = strip(value[index], left - 1, maxDepth);
    return copy;
  }
  if (!isPlainObject(value)) return value;
  if (left <= 0) throw new NestedTooDeepError(maxDepth);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (UNSAFE_KEYS.has(key)) continue;
    copy[key] = strip(value[key], left - 1, maxDepth);
  }
  return copy;
}
