/**
 * Base of every startup error: a decorated class that cannot become a plugin. Like a
 * compile error, the message names the class, the member and the fix, e.g.
 *
 * ```text
 * Weather.getWeather, parameter #0: cannot infer the parameter type (design:paramtypes says Object).
 *   Fix: declare it as string, number, boolean or an array, or pass { type: "object" }.
 * ```
 */
export class PluginDefinitionError extends Error {
  override readonly name: string = "PluginDefinitionError";
  constructor(
    /** The class the problem is in (`Weather`). */
    readonly className: string,
    /** The member, e.g. `getWeather, parameter #0 "city"`, or `@Plugin({ version })` for class options; "" for the class itself. */
    readonly member: string,
    /** What is wrong. */
    readonly problem: string,
    /** How to fix it. */
    readonly fix: string,
  ) {
    super(`${className}${locate(member)}: ${problem}\n  Fix: ${fix}`);
  }
}

function locate(member: string): string {
  if (member === "") return "";
  return member.startsWith("@") ? ` ${member}` : `.${member}`;
}
