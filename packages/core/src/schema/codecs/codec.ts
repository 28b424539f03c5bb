import type { StringSchema } from "../schema.js";

/**
 * A value a tool method receives and returns as an object (or a primitive JSON cannot
 * carry, such as a `bigint`) and that travels as a string, everything the toolkit knows
 * about it in one place: the TypeScript type and reflected constructor that stand for it,
 * the JSON Schema of the string sent, how a sent string becomes the value and how the
 * value is sent back. The schema value names a codec by its `format`; the decorators'
 * reflection and source facts, the manifest's notes, MCP's schemas, binding and results
 * all read it from here.
 *
 * Register one with {@link registerCodec}.
 */
export interface CodecDefinition<T = unknown> {
  /**
   * The codec's name, the schema value's `format` for it (`date-time`, `bigint`): letters,
   * digits, `-` and `_`, starting with a letter.
   */
  readonly name: string;
  /**
   * The TypeScript type as the source names it (`Date`, `bigint`, `Money`): a member of
   * this type is sent as the codec's string.
   */
  readonly typeName: string;
  /** The constructor decorator metadata reports for the type (`design:type`): `Date`, `BigInt`, `Money`. */
  readonly reflectedAs?: Function;
  /**
   * The JSON Schema of the string sent, as MCP clients see it. Default `{ type: "string",
   * format: name }`; a codec whose name is no standard JSON Schema format may say its
   * shape with `pattern` instead (e.g. `{ type: "string", pattern: "^-?[0-9]+$" }`).
   */
  readonly jsonSchema?: Omit<StringSchema, "enum" | "const" | "default">;
  /**
   * What a valid string is, said to the model (in the Executa manifest's description, which
   * has no `format` field) and in refusals: `integer in decimal digits, e.g. 12345678901234567890`.
   */
  readonly description: string;
  /** The value the method receives for a sent string; `undefined` when the string is not one. */
  decode(text: string): T | undefined;
  /** The string a value is sent back as, in results. */
  encode(value: T): string;
  /** Whether `value` is one of the codec's values (found in a result, to be encoded). */
  is(value: unknown): value is T;
}

/** A codec as the table holds it: its definition with the JSON Schema filled in. */
export interface Codec<T = unknown> extends CodecDefinition<T> {
  readonly jsonSchema: Omit<StringSchema, "enum" | "const" | "default">;
  /** The expected value in messages: `string (ISO 8601 date-time)`. */
  readonly expected: string;
  /** A valid value as a refusal says it: `an ISO 8601 date-time such as 2026-01-31T09:00:00Z`. */
  readonly noun: string;
}
