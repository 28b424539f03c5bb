/** Keys that can reach an object's prototype; dropped from every argument object, at every depth. */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Whether a value is a plain JSON object (not null, not an array, not a class instance). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A deep copy of JSON data without `__proto__`, `constructor` and `prototype` keys, made
 * before anything else reads the arguments (`JSON.parse` creates `__proto__` as an own key,
 * which a later spread or merge would turn into a prototype change).
 */
export function stripUnsafeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripUnsafeKeys);
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (UNSAFE_KEYS.has(key)) continue;
    copy[key] = stripUnsafeKeys(value[key]);
  }
  return copy;
}
