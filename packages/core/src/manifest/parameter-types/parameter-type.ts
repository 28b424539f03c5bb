import { previewText } from "../../errors/preview.js";
import type { Schema } from "../../schema/schema.js";

/** What reading a parameter value from text gave: the value, or why the text is not one. */
export type TextReading = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * One parameter type of the protocol, everything the toolkit knows about it in one place:
 * its manifest form, its check of JSON values, its reading from text, and which reflected
 * constructor and which TypeScript types stand for it. The decorators' binding and
 * reflection, the bundler's source analysis, `executa check` and `executa dev`'s argument
 * parser all use these.
 */
export interface ParameterTypeRules<Name extends string = string> {
  /** The `type` value of a parameter schema, e.g. `integer`. */
  readonly name: Name;
  /** The type as messages say it: `an integer`, `true or false`. */
  readonly noun: string;
  /**
   * Schema fields that apply to this type only, beyond the ones every parameter has
   * (`name`, `type`, `description`, `required`, `default`, `enum`): `items` and
   * `items_type` for `array`, none for the others.
   */
  readonly schemaFields: readonly string[];
  /**
   * The schema value of a value of this type as declared with nothing more, e.g.
   * `{ type: "string" }`; what a declaration adds (an enum, bounds, an array's elements, an
   * object's fields) is merged over it.
   */
  readonly schema: Schema;
  /**
   * The name of the global constructor whose reflected `design:type` (decorator metadata)
   * means this type: `String` for `string`. Absent where no constructor stands for the
   * type alone: `Number` means `number`, not `integer`, and `Object` is also what
   * reflection says for `any`, unions and interfaces.
   */
  readonly reflectedFrom?: string;
  /**
   * The name of the `ts.TypeFlags` member whose TypeScript types (literals and enum
   * members included) this type is the manifest form of: `StringLike` for `string`. A name,
   * so that core needs no TypeScript. Absent where flags do not decide the type: lists and
   * objects are told apart by their shapes.
   */
  readonly typeScriptFlags?: string;
  /** Whether a JSON value is of this type (a declared `default`, an `enum` value, an argument). */
  fits(value: unknown): boolean;
  /**
   * Reads a value of this type from text: a `key=value` typed at `executa dev`, or a
   * string an LLM sent in place of a number, boolean, list or object.
   * @param element - the element type, for `array` only (default `string`).
   */
  fromText(text: string, element?: ParameterTypeRules): TextReading;
}

/** Longest piece of a rejected text a reason quotes. */
const QUOTED_TEXT_MAX = 60;

/** A successful reading. */
export function read(value: unknown): TextReading {
  return { ok: true, value };
}

/** A failed reading: `expected an integer, got "1.5"`. */
export function notA(noun: string, text: string): TextReading {
  return { ok: false, reason: `expected ${noun}, got ${JSON.stringify(previewText(text, QUOTED_TEXT_MAX))}` };
}

/** `JSON.parse`, or `undefined` for text that is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
