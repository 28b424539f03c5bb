import { errorBrand, isBrandedInstance, markBrands } from "../../errors/brand.js";

/**
 * Why a Standard Schema value cannot become the one schema value, one code per case:
 *
 * - `NOT_A_STANDARD_SCHEMA`: the value has no `~standard` property with `validate`.
 * - `NO_JSON_SCHEMA`: it implements Standard Schema but not Standard JSON Schema, so its
 *   shape cannot be read (a valibot schema not wrapped with `toStandardJsonSchema`).
 * - `CONVERSION_FAILED`: the library's own JSON Schema converter refused the schema (a
 *   `z.date()`, a valibot `v.check` without `ignoreActions`, …).
 * - `NOT_AN_OBJECT`: the schema's values are not objects (a tool's arguments and a
 *   `createObject` answer are).
 * - `UNSUPPORTED_KEYWORD`: a JSON Schema keyword outside the closed subset (`oneOf`,
 *   `allOf`, `prefixItems`, `multipleOf`, `examples`, …) or a value it cannot take.
 * - `UNSUPPORTED_REF`: a `$ref` to anything but the document itself or its own `$defs`.
 */
export type SchemaConversionErrorCode =
  | "NOT_A_STANDARD_SCHEMA"
  | "NO_JSON_SCHEMA"
  | "CONVERSION_FAILED"
  | "NOT_AN_OBJECT"
  | "UNSUPPORTED_KEYWORD"
  | "UNSUPPORTED_REF";

/**
 * A Standard Schema value the schema subset cannot carry. Nothing is dropped in silence:
 * every keyword is either carried or refused with this error, e.g.
 *
 * ```text
 * the JSON Schema keyword "multipleOf" at /properties/step is outside the supported subset
 *   Fix: check it in a refinement (…)
 * ```
 */
export class SchemaConversionError extends Error {
  /** The process-wide identity of this class: one from another copy of the package is one too. */
  static readonly brand: symbol = errorBrand("SchemaConversionError");
  /** True for instances of this class, also when made by another copy of the package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class checked against, a subclass included
    return isBrandedInstance(this, value);
  }
  /** `"SchemaConversionError"`. */
  override readonly name = "SchemaConversionError";
  constructor(
    /** Which case this is; stable, for programs to match on. */
    readonly code: SchemaConversionErrorCode,
    /** What is wrong, and where (a JSON Pointer into the library's JSON Schema). */
    readonly problem: string,
    /** How to fix it. */
    readonly fix: string,
    options?: ErrorOptions,
  ) {
    super(`${problem}\n  Fix: ${fix}`, options);
    markBrands(this, new.target);
  }
}
