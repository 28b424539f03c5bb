import { recordParam } from "./param-decorator.js";

/**
 * Fills this parameter with the whole argument object as an instance of its DTO class
 * (the parameter's TypeScript type), built with class-transformer and checked with
 * class-validator. The manifest's parameters are the DTO's properties. Cannot be combined
 * with `@Param` on the same method.
 *
 * ```ts
 * class ForecastArgs { @IsString() city!: string; @IsOptional() @IsInt() days: number = 3; }
 * getForecast(@Args() args: ForecastArgs)
 * ```
 */
export function Args(): ParameterDecorator {
  return recordParam("@Args()", { kind: "args" });
}
