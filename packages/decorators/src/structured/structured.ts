import { CLASS_VALIDATOR_SUPPORT } from "../dto/class-validator-support.js";
import { enableDtoSupport } from "../dto/dto-support.js";

/** Options of {@link Structured}. */
export interface StructuredOptions {
  /** `json_schema.name` sent to the host (`^[a-zA-Z0-9_-]{1,64}$`); default: the class name. */
  name?: string;
  /** What the object is, for the model (the schema's `description`). */
  description?: string;
}

const structuredOptions = new WeakMap<Function, StructuredOptions>();

/**
 * Marks a class-validator DTO as an answer shape for `ctx.host.sampling.createObject`,
 * optionally naming and describing it. Its JSON Schema is read by the converter that
 * builds tool parameters from `@Args()` DTOs, and answers are validated by the same
 * binding.
 *
 * ```ts
 * @Structured({ description: "A summary of a text" })
 * class SummaryDto {
 *   @IsString() summary!: string;
 *   @IsArray() @IsString({ each: true }) keywords!: string[];
 *   @IsIn(["positive", "neutral", "negative"]) sentiment!: string;
 * }
 * const { object } = await ctx.host.sampling.createObject(SummaryDto, { messages });
 * ```
 */
export function Structured(options: StructuredOptions = {}): ClassDecorator {
  enableDtoSupport(CLASS_VALIDATOR_SUPPORT);
  return (target) => {
    structuredOptions.set(target, { ...options });
  };
}

/** The options `@Structured()` recorded on `target` (or an ancestor). */
export function structuredOptionsOf(target: Function): StructuredOptions | undefined {
  for (let ctor: unknown = target; typeof ctor === "function"; ctor = Object.getPrototypeOf(ctor)) {
    const options = structuredOptions.get(ctor);
    if (options) return options;
  }
  return undefined;
}
