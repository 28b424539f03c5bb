/**
 * The Standard Schema and Standard JSON Schema interfaces (standardschema.dev, v1), copied
 * as the specification invites, so that core depends on no schema library: it reads the
 * `~standard` property alone. Only the members core reads are kept; zod 4, valibot and
 * the other implementations fit them structurally.
 */

/** A schema value of any library that implements Standard Schema (zod 4, valibot, ArkType, …). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The library's implementation of the protocol. */
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

/** The parts of {@link StandardSchemaV1}. */
export declare namespace StandardSchemaV1 {
  /** The `~standard` property. */
  interface Props<Input = unknown, Output = Input> {
    /** The version of the protocol: 1. */
    readonly version: 1;
    /** The library's name (`zod`, `valibot`, …). */
    readonly vendor: string;
    /** Validates an unknown value into the schema's output. */
    readonly validate: (
      value: unknown,
      options?: { readonly libraryOptions?: Record<string, unknown> | undefined } | undefined,
    ) => Result<Output> | Promise<Result<Output>>;
    /** The input and output types, for inference only. */
    readonly types?: Types<Input, Output> | undefined;
  }
  /** What `validate` answers. */
  type Result<Output> = SuccessResult<Output> | FailureResult;
  /** A value that validated. */
  interface SuccessResult<Output> {
    /** The schema's output value (after its transforms and defaults). */
    readonly value: Output;
    /** Absent on success. */
    readonly issues?: undefined;
  }
  /** A value that did not validate. */
  interface FailureResult {
    /** Every problem found. */
    readonly issues: ReadonlyArray<Issue>;
  }
  /** One problem `validate` found, and where. */
  interface Issue {
    /** What is wrong, in the library's words. */
    readonly message: string;
    /** Where: keys and indices from the value's root. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** A path segment written as an object. */
  interface PathSegment {
    /** The key or index. */
    readonly key: PropertyKey;
  }
  /** The types a schema carries for inference. */
  interface Types<Input = unknown, Output = Input> {
    /** The type the schema accepts. */
    readonly input: Input;
    /** The type `validate` answers. */
    readonly output: Output;
  }
  /** The type a schema accepts. */
  type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["input"];
  /** The type a schema's `validate` answers (after its transforms). */
  type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["output"];
}

/** A schema value that can also describe itself as JSON Schema (Standard JSON Schema v1). */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> {
  /** The library's implementation of the protocol. */
  readonly "~standard": StandardJSONSchemaV1.Props<Input, Output>;
}

/** The parts of {@link StandardJSONSchemaV1}. */
export declare namespace StandardJSONSchemaV1 {
  /** The `~standard` property. */
  interface Props<Input = unknown, Output = Input> {
    /** The version of the protocol: 1. */
    readonly version: 1;
    /** The library's name. */
    readonly vendor: string;
    /** The input and output types, for inference only. */
    readonly types?: StandardSchemaV1.Types<Input, Output> | undefined;
    /** The JSON Schema of the values the schema accepts (`input`) or answers (`output`). */
    readonly jsonSchema: Converter;
  }
  /** Writes the schema as JSON Schema. */
  interface Converter {
    /** The JSON Schema of what the schema accepts; may throw when a part has no JSON Schema form. */
    readonly input: (options: Options) => Record<string, unknown>;
    /** The JSON Schema of what `validate` answers; may throw (a transform has no JSON Schema form). */
    readonly output: (options: Options) => Record<string, unknown>;
  }
  /** What to write. */
  interface Options {
    /** `"draft-2020-12"`, `"draft-07"`, `"openapi-3.0"`, or another the library knows. */
    readonly target: string;
    /** Options only the library understands (valibot: `errorMode`, `ignoreActions`, …). */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
}

/** Whether `value` implements Standard Schema v1 (a `~standard` property of version 1 with `validate`). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const props = (value as { "~standard"?: unknown })["~standard"];
  return (
    typeof props === "object" &&
    props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === "function"
  );
}
