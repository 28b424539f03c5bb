import { errorBrand } from "../../errors/brand.js";
import { CodedError } from "../../errors/coded-error.js";

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
export class SchemaConversionError extends CodedError<SchemaConversionErrorCode> {
  /** The process-wide identity of this class: one from another copy of the package is one too. */
  static override readonly brand: symbol = errorBrand("SchemaConversionError");
  /** `"SchemaConversionError"`. */
  override readonly name = "SchemaConversionError";
  /**
   * @param code - which case this is; stable, for programs to match on.
   * @param problem - what is wrong, and where (a JSON Pointer into the library's JSON Schema).
   * @param fix - how to fix it.
   */
  constructor(code: SchemaConversionErrorCode, problem: string, fix: string, options?: ErrorOptions) {
    super(code, problem, fix, options);
  }
}
