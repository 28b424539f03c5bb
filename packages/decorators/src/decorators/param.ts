import type { ArgumentOptions } from "../options/argument-options.js";
import { recordParam } from "./param-decorator.js";

/**
 * Fills this parameter with the named argument. The name is explicit because runtime
 * parameter names do not exist and minifiers rename them. The type comes from the
 * parameter's TypeScript type (`string`, `number`, `boolean`, arrays) unless `type` is given.
 *
 * ```ts
 * getWeather(@Param("city", { description: "City name" }) city: string,
 *            @Param("days", { type: "integer", default: 3 }) days: number)
 * ```
 */
export function Param(name: string, options: ArgumentOptions = {}): ParameterDecorator {
  return recordParam("@Param()", { kind: "param", name, options });
}
