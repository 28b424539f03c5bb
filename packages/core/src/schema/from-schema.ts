/**
 * The TypeScript type of the JSON values a schema written `as const` accepts: what a
 * reverse method's params and result are typed as, derived from its row of the table.
 * An object's listed properties are typed; further keys are allowed as TypeScript allows
 * them (an object type without an index signature), or typed by `additionalProperties`.
 */
export type FromSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly anyOf: readonly (infer U)[] }
      ? FromSchema<U>
      : S extends { readonly type: infer T }
        ? FromTypedSchema<S, T>
        : unknown;

/** {@link FromSchema} of a schema whose `type` is `T`. */
export type FromTypedSchema<S, T> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? S extends { readonly items: infer I }
            ? FromSchema<I>[]
            : unknown[]
          : T extends "object"
            ? FromObjectSchema<S>
            : unknown;

/** The `properties` of an object schema (none when it lists none). */
export type SchemaProperties<S> = S extends { readonly properties: infer P } ? P : Record<never, never>;
/** The names an object schema lists as `required`. */
export type SchemaRequiredKeys<S> = S extends { readonly required: readonly (infer K)[] } ? K : never;

/** The keys beyond `properties` an object schema types by `additionalProperties`. */
export type SchemaExtraProperties<S> = S extends { readonly additionalProperties: infer A extends object }
  ? { [key: string]: FromSchema<A> }
  : unknown;

/** `T` as one object type (an intersection written out). */
export type Flattened<T> = { [K in keyof T]: T[K] };

/** {@link FromSchema} of an object schema: required properties, optional ones, and typed further keys. */
export type FromObjectSchema<S> = Flattened<
  {
    -readonly [K in keyof SchemaProperties<S> & SchemaRequiredKeys<S>]: FromSchema<SchemaProperties<S>[K]>;
  } & {
    -readonly [K in Exclude<keyof SchemaProperties<S>, SchemaRequiredKeys<S>>]?: FromSchema<
      SchemaProperties<S>[K]
    >;
  }
> &
  SchemaExtraProperties<S>;
