/**
 * The slot through which `sampling.createObject` learns a class's JSON Schema and turns
 * a parsed answer into a validated instance. Core knows no schema library: a package that
 * reads classes (`@executa/decorators` reads class-validator DTOs) registers a provider.
 */

/** A class `createObject` can build: constructible without arguments. */
export type ObjectTarget<T extends object = object> = abstract new () => T;

/** The JSON Schema of a class, as the provider reads it. */
export interface ObjectSchema {
  /** A JSON Schema of type `object`. */
  schema: Record<string, unknown>;
  /** The default `json_schema.name` (the provider's reading of the class name). */
  name: string;
  /** A description of the class, when it carries one. */
  description?: string;
}

/** One problem of a value checked against its class: `path` like `keywords.2`. */
export interface ObjectIssue {
  path: string;
  message: string;
}

/** A value checked against its class: the instance, or every problem found. */
export type ObjectValidation<T> = { ok: true; value: T } | { ok: false; issues: ObjectIssue[] };

/** Reads classes into JSON Schemas and validates values into instances of them. */
export interface ObjectSchemaProvider {
  /** Whether this provider can read `target` (the first provider that can is used). */
  supports(target: Function): boolean;
  /** The JSON Schema of `target`; `strict` asks for a schema in the strict structured-output form. */
  schemaOf(target: Function, options: { strict: boolean }): ObjectSchema;
  /** `value` (parsed JSON) turned into an instance of `target` and validated. */
  validate<T extends object>(target: ObjectTarget<T>, value: unknown): Promise<ObjectValidation<T>>;
}

const providers: ObjectSchemaProvider[] = [];

/**
 * Registers a provider (idempotent for the same object). Providers registered later are
 * asked first. Answers a function that removes it again.
 */
export function registerObjectSchemaProvider(provider: ObjectSchemaProvider): () => void {
  if (!providers.includes(provider)) providers.unshift(provider);
  return () => {
    const index = providers.indexOf(provider);
    if (index !== -1) providers.splice(index, 1);
  };
}

/** The provider that reads `target`, or undefined when none does. */
export function objectSchemaProviderFor(target: Function): ObjectSchemaProvider | undefined {
  return providers.find((provider) => provider.supports(target));
}

/** Whether any provider is registered at all (for a precise error message). */
export function hasObjectSchemaProviders(): boolean {
  return providers.length > 0;
}
