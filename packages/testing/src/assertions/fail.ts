import { AssertionError } from "node:assert";

/** Throws an `AssertionError` (test runners show `actual` and `expected` as a diff). */
export function fail(message: string, actual: unknown, expected: unknown, from: Function): never {
  throw new AssertionError({ message, actual, expected, stackStartFn: from });
}

/** Whether `text` matches: a substring for a string, a test for a RegExp. */
export function matches(text: string, matcher: string | RegExp): boolean {
  return typeof matcher === "string" ? text.includes(matcher) : matcher.test(text);
}

/** A short, safe rendering of a value for messages. */
export function show(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 300 ? `${text.slice(0, 300)}…` : text;
  } catch {
    return String(value);
  }
}
