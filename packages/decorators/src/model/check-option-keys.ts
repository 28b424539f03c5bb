import { DefinitionError } from "../errors/definition-error.js";
import { closestName } from "../naming/closest-name.js";

/** Where an options object was given, for the error. */
export interface OptionSite {
  className: string;
  /** The member, e.g. `getWeather` or `getWeather, parameter #0 "city"`; "" for the class. */
  member: string;
  /** The decorator as the message shows it, e.g. `@Plugin()`. */
  decorator: string;
}

/**
 * Throws `UNKNOWN_OPTION` for the first key of `options` that `known` does not list,
 * naming the closest valid key: a misspelled option must not be silently ignored
 * (`hostCapabilities` for `host_capabilities` would only fail at the first call needing it).
 */
export function checkOptionKeys(options: object, known: readonly string[], site: OptionSite): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const member = site.member === "" ? `${site.decorator.slice(0, -1)}{ ${key} })` : site.member;
    throw new DefinitionError(
      "UNKNOWN_OPTION",
      site.className,
      member,
      `${site.decorator} has no option "${key}"`,
      unknownOptionFix(key, known),
    );
  }
}

/** The fix for an unknown option key: the closest valid key when one is close, else removal. */
export function unknownOptionFix(key: string, known: readonly string[]): string {
  const closest = closestName(key, known);
  return closest !== undefined
    ? `did you mean "${closest}"? (options: ${known.join(", ")})`
    : `remove it; the options are ${known.join(", ")}`;
}
