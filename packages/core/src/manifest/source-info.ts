import type { Schema } from "../schema/schema.js";

/** `schema` without the `null` member of its `anyOf` (a nullable type's value type); itself when not nullable. */
export function withoutNull(schema: Schema): Schema {
  if (!("anyOf" in schema) || schema.anyOf === undefined) return schema;
  const present = schema.anyOf.filter((member) => !("type" in member && member.type === "null"));
  if (present.length === schema.anyOf.length) return schema;
  const [only] = present;
  return present.length === 1 && only ? only : { anyOf: present };
}

/** Whether `schema` admits `null` (a union with `null`). */
export function isNullable(schema: Schema): boolean {
  return withoutNull(schema) !== schema;
}

/**
 * What a build-time reading of the TypeScript source knows about a decorated class and
 * that runtime reflection loses: parameter names, optionality, defaults, literal unions
 * and enums, element types, object shapes and doc comments. The bundler's source reader
 * records it next to each class it compiles, each type as a {@link Schema}; the decorators
 * merge it under the explicit decorator options (which always win).
 *
 * A recorded schema says what the TypeScript type says: a primitive's `type`, a literal
 * union's or an enum's `enum` (a numeric enum's member names in `enumNames`), an array's
 * `items`, an object type's `properties` and `required` (each property's doc comment as its
 * `description`, its JSON initializer as its `default`), bounds from `@minimum` /
 * `@maximum`, a format's class (`Date`, `URL`) as a string with its `format`, a union of
 * different types as `anyOf`, and a union with `null` as `anyOf` with `{ type: "null" }`.
 * A type without a faithful form is recorded as reflection would see it (see
 * {@link SourceClass.unsupported}).
 *
 * An object of a class of the project (a DTO field `payer!: Payer`, the elements of
 * `items!: LineItem[]`) carries that class as `target`. The emitted code writes it as a
 * getter, `get target() { return LineItem; }`, since the class may be declared further down
 * the module or in a module that imports this one: read it once every module has loaded.
 *
 * One parameter or DTO field as the source declares it.
 */
export interface SourceField {
  /** The schema of the declared type; the field's own description and default are beside it. */
  schema: Schema;
  /** `?`, a default value, or a union with `undefined`. */
  optional: boolean;
  /** The doc comment's text (tags removed). */
  description?: string;
  /** The default value when the initializer is a JSON literal. */
  default?: unknown;
  /**
   * The type annotation as written in the source, e.g. `Units` or `"metric" | "imperial"`
   * (whitespace collapsed, long ones shortened), for error messages that name the type the
   * way its author wrote it. Absent when the member has no annotation.
   */
  typeText?: string;
}

/** One method parameter, by position. */
export interface SourceParameter extends SourceField {
  /** The parameter's name in the source. */
  name: string;
  /** Its position in the method's parameter list. */
  index: number;
}

/** One method of a class. */
export interface SourceMethod {
  description?: string;
  parameters: readonly SourceParameter[];
  /**
   * The schema of what the method resolves to (a promise unwrapped, display blocks left
   * out); absent for `void` or `never` and for a type the analysis does not load. Types
   * without a faithful form inside it are listed in `unsupported` (member `method()` or a
   * path below it, `method().field`, `method().list[]`).
   */
  returns?: Schema;
  /**
   * `private` or `protected` when the method is declared so: TypeScript keeps it from
   * callers, which a tool never is. Absent for a public method.
   */
  visibility?: "private" | "protected";
}

/** Everything recorded for one class (a plugin class or a DTO class). */
export interface SourceClass {
  /** The class's doc comment. */
  description?: string;
  /**
   * For a `@Plugin` class: the `version` of the nearest `package.json` above its file, the
   * manifest's version when `@Plugin` gives none (one source for the version).
   */
  packageVersion?: string;
  /** Methods by name. */
  methods?: Readonly<Record<string, SourceMethod>>;
  /** Property declarations (DTO fields) by name. */
  fields?: Readonly<Record<string, SourceField>>;
  /**
   * Members whose TypeScript type has no faithful manifest form (a function, a class
   * instance other than `Date`, `bigint`, a generic, a union of different types, `any`, …).
   * Such a member is recorded with what reflection would say (or not at all); the
   * decorators refuse it unless an explicit `type` option overrides it.
   */
  unsupported?: readonly SourceUnsupported[];
  /**
   * Doc-comment tags on members (parameters, fields, properties inside them) that are
   * neither schema tags nor documentation tags (`@min 0` for `@minimum 0`): the decorators
   * refuse them rather than drop them.
   */
  unknownTags?: readonly SourceUnknownTag[];
}

/** A doc-comment tag the schema does not know, where it was written. */
export interface SourceUnknownTag {
  /** The member, named as in {@link SourceUnsupported.member} (`method(param)`, `field`, `field.sub`). */
  member: string;
  /** The tag without its `@`. */
  tag: string;
}

/** How a member path names a method's result: `method()`; inside it, `method().field` and `method().list[]`. */
export function resultPath(method: string): string {
  return `${method}()`;
}

/** Whether `member` is `method`'s result or lies inside it (see {@link resultPath}). */
export function isInResultOf(member: string, method: string): boolean {
  const result = resultPath(method);
  return member === result || member.startsWith(`${result}.`) || member.startsWith(`${result}[`);
}

/** Whether `path` lies inside some method's result, below the result itself (`Class.method().field`). */
export function isInsideAResult(path: string): boolean {
  return /\(\)[.[]/.test(path);
}

/** A member of a class whose type the manifest cannot describe faithfully. */
export interface SourceUnsupported {
  /**
   * `method(param)` for a method parameter, `field` for a property; a nested path below
   * either when the type is found inside it (`method(param).sub`, `field[]`).
   */
  member: string;
  /** The parameter's position, for a method parameter. */
  index?: number;
  /** The type as written (as the TypeScript checker prints it). */
  type: string;
  /** Why it has no manifest form, e.g. "a function". */
  reason: string;
  /**
   * Values of the type do not survive JSON as themselves (a function, a `bigint`, a
   * `symbol`, a `Map`): a tool result holding one has no faithful schema at all.
   */
  lossy?: boolean;
}

/**
 * The global registry the emitted code writes to, keyed by this symbol so that the
 * generated statement needs no import:
 * `(globalThis[Symbol.for("executa.source")] ??= new WeakMap()).set(Cls, {...})`.
 */
export const SOURCE_INFO_KEY: unique symbol = Symbol.for("executa.source") as never;

type SourceRegistry = WeakMap<object, SourceClass>;

function registry(create: boolean): SourceRegistry | undefined {
  const holder = globalThis as unknown as Record<symbol, SourceRegistry | undefined>;
  if (!holder[SOURCE_INFO_KEY] && create) holder[SOURCE_INFO_KEY] = new WeakMap();
  return holder[SOURCE_INFO_KEY];
}

/** The recorded source facts of a class, if its file went through the source reader. */
export function sourceInfoOf(target: object): SourceClass | undefined {
  return registry(false)?.get(target);
}

/** Records source facts for a class (what the emitted statement does, for tests and tools). */
export function recordSourceInfo(target: object, info: SourceClass): void {
  registry(true)?.set(target, info);
}
