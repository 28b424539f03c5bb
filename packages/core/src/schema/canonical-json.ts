/**
 * JSON text in which equal values are equal text: object keys written in one order at every
 * depth. What compares schemas (compat) and list elements (`uniqueItems`) as JSON values.
 */

/** `value` as JSON with every object's keys sorted; `undefined` where `JSON.stringify` gives it. */
export function canonicalJson(value: unknown): string | undefined {
  return JSON.stringify(value, withSortedKeys);
}

function withSortedKeys(_key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}
