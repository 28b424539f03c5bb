/**
 * The one schema value: a closed, typed subset of JSON Schema 2020-12 in which every tool's
 * input and output, every DTO, every `createObject` target and every reverse-call method's
 * params and result is expressed. Each projection (the Executa manifest, MCP `inputSchema`
 * and `outputSchema`, `response_format`, the released surface) is derived from it, and the
 * checker used at every invoke is compiled from it.
 *
 * A value is plain JSON Schema, with three exceptions kept out of every projection:
 * `enumNames` (a numeric enum's member names), `target` (the class an object value
 * becomes an instance of) and `rules` (checks no keyword expresses, said in words). Nullability is `anyOf` with `{ type: "null" }`.
 */

/** Keywords any schema may carry. */
export interface SchemaAnnotations {
  /** What the value is, for the model and the reader. */
  readonly description?: string;
  /** A short name (e.g. the DTO class's name). */
  readonly title?: string;
  /** The value used when the caller sends none (a JSON value). */
  readonly default?: unknown;
  /**
   * Rules checked at every invoke that no keyword of this subset expresses (a class-validator
   * `@IsUrl()`, `@Matches(/x/i)`, `@ArrayUnique(selector)`), in words: every projection says them in
   * the description. Not JSON Schema: no projection shows the member itself.
   */
  readonly rules?: readonly string[];
}

/** A string, possibly with a format (`date-time`, `uri`, …) that a codec turns into an object. */
export interface StringSchema extends SchemaAnnotations {
  readonly type: "string";
  readonly enum?: readonly string[];
  readonly const?: string;
  /** Inclusive length bounds, in characters (code points). */
  readonly minLength?: number;
  readonly maxLength?: number;
  /** An ECMAScript regular expression the whole value must match somewhere (JSON Schema semantics). */
  readonly pattern?: string;
  readonly format?: string;
}

/** A number, or an integer. */
export interface NumericSchema extends SchemaAnnotations {
  readonly type: "number" | "integer";
  readonly enum?: readonly number[];
  /**
   * A numeric TypeScript enum's member names, one per `enum` value in the same order: what
   * the model is shown and may send. Not JSON Schema: each projection decides how to show it.
   */
  readonly enumNames?: readonly string[];
  readonly const?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
}

export interface BooleanSchema extends SchemaAnnotations {
  readonly type: "boolean";
  readonly enum?: readonly boolean[];
  readonly const?: boolean;
}

export interface NullSchema extends SchemaAnnotations {
  readonly type: "null";
}

export interface ArraySchema extends SchemaAnnotations {
  readonly type: "array";
  /** The schema of every element; absent for elements of any JSON value. */
  readonly items?: Schema;
  readonly minItems?: number;
  readonly maxItems?: number;
  /**
   * `true`: no two elements are equal as JSON values, objects compared key by key in any
   * order (`[1, "1"]` is unique, `[[1], [1]]` is not). `false` or absent: elements may repeat.
   */
  readonly uniqueItems?: boolean;
}

/** A class an object value becomes an instance of: constructible without arguments. */
export type SchemaTarget = abstract new () => object;

export interface ObjectTypeSchema extends SchemaAnnotations {
  readonly type: "object";
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  /**
   * `false`: keys not in `properties` are refused. A schema: the type of every value of a
   * map-like object (`Record<string, T>`). Absent: any further keys are accepted.
   */
  readonly additionalProperties?: false | Schema;
  /** Named schemas for `$ref` (recursive DTOs); only on the root of a value. */
  readonly $defs?: Readonly<Record<string, Schema>>;
  /** The class a value becomes an instance of (getters and methods work). Not JSON Schema: no projection shows it. */
  readonly target?: SchemaTarget;
}

/** One of several schemas (a union; nullability is a union with `{ type: "null" }`). */
export interface AnyOfSchema extends SchemaAnnotations {
  readonly anyOf: readonly Schema[];
}

/** A reference to a named schema of the root's `$defs`, e.g. `#/$defs/CategoryNode`. */
export interface RefSchema extends SchemaAnnotations {
  readonly $ref: `#/$defs/${string}`;
}

/** Any JSON value (an `unknown` field): the empty schema. */
export interface AnySchema extends SchemaAnnotations {
  readonly type?: undefined;
}

/** The one schema value. */
export type Schema =
  | StringSchema
  | NumericSchema
  | BooleanSchema
  | NullSchema
  | ArraySchema
  | ObjectTypeSchema
  | AnyOfSchema
  | RefSchema
  | AnySchema;
