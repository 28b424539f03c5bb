import { errorBrand, isBrandedInstance, markBrands } from "./brand.js";

/**
 * An expected, recoverable tool failure ("city not found", "rate limited"). The server
 * answers it as `{ success: false, error: message }` so the LLM is told about it.
 */
export class ToolError extends Error {
  /** The process-wide identity of this class: a `ToolError` from another copy of the package is one too. */
  static readonly brand: symbol = errorBrand("ToolError");

  /** True for instances of this class, also when made by another copy of the package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class checked against, a subclass included
    return isBrandedInstance(this, value);
  }

  override readonly name: string = "ToolError";
  constructor(
    message: string,
    /** Optional data returned beside the error (as `data`). */
    readonly data?: unknown,
  ) {
    super(message);
    markBrands(this, new.target);
  }
}
