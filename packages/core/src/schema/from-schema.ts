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
        ? FromTyped<S, T>
        : unknown;

type FromTyped<S, T> = T extends "string"
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
            ? FromObject<S>
            : unknown;

type Properties<S> = S extends { readonly properties: infer P } ? P : Record<never, never>;
type RequiredKeys<S> = S extends { readonly required: readonly (infer K)[] } ? K : never;

type Extra<S> = S extends { readonly additionalProperties: infer A extends object }
  ? { [key: string]: FromSchema<A> }
  : unknown;

type Flat<T> = { [K in keyof T]: T[K] };

type FromObject<S> = Flat<
  { -readonly [K in keyof Properties<S> & RequiredKeys<S>]: FromSchema<Properties<S>[K]> } & {
    -readonly [K in Exclude<keyof Properties<S>, RequiredKeys<S>>]?: FromSchema<Properties<S>[K]>;
  }
> &
  Extra<S>;
