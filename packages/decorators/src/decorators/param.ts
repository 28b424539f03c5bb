import type { ArgumentOptions } from "../options/argument-options.js";
import { recordParam } from "./param-decorator.js";

/**
 * Fills this parameter with the named argument.
 *
 * Built and run with the executa source reader (`executa build`, `executa dev`, the
 * executa vitest plugin), the name, type, optionality, default, enum and description come
 * from the source, so an undecorated parameter already is an argument; `@Param` then only
 * overrides (explicit options always win). Without the source reader, runtime parameter
 * names do not exist (minifiers rename them): give the name, and the type comes from
 * reflection (`string`, `number`, `boolean`, arrays, `Date`) unless `type` is given.
 *
 * ```ts
 * getWeather(@Param("city", { description: "City name" }) city: string,
 *            @Param("days", { type: "integer", default: 3 }) days: number)
 * ```
 */
export function Param(name?: string, options?: ArgumentOptions): ParameterDecorator;
/** Options only: the name comes from the source. */
export function Param(options: ArgumentOptions): ParameterDecorator;
export function Param(
  nameOrOptions?: string | ArgumentOptions,
  options: ArgumentOptions = {},
): ParameterDecorator {
  if (typeof nameOrOptions === "object" && nameOrOptions !== null)
    return recordParam("@Param()", { kind: "param", name: undefined, options: nameOrOptions });
  return recordParam("@Param()", { kind: "param", name: nameOrOptions, options });
}
