/**
 * JSON Schema's `uniqueItems`: no two elements of a list are equal as JSON values. Both
 * checkers of the schema value (core's shape check and the decorators' invoke checker)
 * read it from here, so they agree on what "equal" means and say it in the same words.
 */

import { canonicalJson } from "./canonical-json.js";
import { encodeResult } from "./codecs/encode-results.js";

/** Where a list first repeats an element: its index, and the index of the element it equals. */
export interface RepeatedElement {
  /** The index of the repeating element. */
  readonly index: number;
  /** The index of the earlier element it equals. */
  readonly first: number;
}

/**
 * The first element of `list` equal to an earlier one, compared as JSON values: object keys
 * in any order, a number and its text apart (`1` and `"1"` differ), a decoded value (a
 * `Date`, a registered codec's `bigint`) as the JSON it is sent as. `undefined` when all differ.
 */
export function firstRepeatedElement(list: readonly unknown[]): RepeatedElement | undefined {
  const seen = new Map<string | undefined, number>();
  for (let index = 0; index < list.length; index++) {
    const key = canonicalJson(encodeResult(list[index]));
    const first = seen.get(key);
    if (first !== undefined) return { index, first };
    seen.set(key, index);
  }
  return undefined;
}

/** What is wrong with a list that repeats an element: `must have unique elements: element 2 repeats element 0`. */
export function repeatedElementProblem({ index, first }: RepeatedElement): string {
  return `must have unique elements: element ${index} repeats element ${first}`;
}
