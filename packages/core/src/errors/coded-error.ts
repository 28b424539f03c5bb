import { errorBrand, isBrandedInstance, markBrands } from "./brand.js";

/** What a {@link CodedError} takes beside its code, problem and fix. */
export interface CodedErrorOptions extends ErrorOptions {
  /** Where the problem is (`Weather.getWeather, parameter #0 "city"`), written before it as `subject: `. */
  readonly subject?: string;
}

/**
 * An error that says which case it is, what is wrong and how to fix it, like a compile
 * error. Its message is written from those parts, the fix on a line of its own:
 *
 * ```text
 * Weather.getWeather, parameter #0 "city": cannot infer the type (…)
 *   Fix: declare it as string, number, boolean or an array (…)
 * ```
 *
 * Programs match on `code`, never on the message. `instanceof` a subclass with a static
 * `brand` of its own also holds for an instance made by another copy of the package.
 * @typeParam Code - the subclass's closed set of codes.
 */
export abstract class CodedError<Code extends string> extends Error {
  /** The process-wide identity of this class: one from another copy of the package is one too. */
  static readonly brand: symbol = errorBrand("CodedError");

  /** True for instances of this class (or the subclass checked), also when made by another copy of the package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class checked against, a subclass included
    return isBrandedInstance(this, value);
  }

  protected constructor(
    /** Which case this is; stable, for programs to match on. */
    readonly code: Code,
    /** What is wrong. */
    readonly problem: string,
    /** How to fix it. */
    readonly fix: string,
    options: CodedErrorOptions = {},
  ) {
    const { subject, ...errorOptions } = options;
    super(`${subject === undefined ? "" : `${subject}: `}${problem}\n  Fix: ${fix}`, errorOptions);
    markBrands(this, new.target);
  }
}
