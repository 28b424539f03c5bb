import { CLASS_VALIDATOR_SUPPORT } from "../dto/class-validator-support.js";
import { enableDtoSupport } from "../dto/dto-support.js";
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
  enableDtoSupport(CLASS_VALIDATOR_SUPPORT);
  return recordParam("@Args()", { kind: "args" });
}
