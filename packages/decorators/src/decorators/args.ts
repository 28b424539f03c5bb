import type { StandardSchemaV1 } from "@executa/core";
import { CLASS_VALIDATOR_SUPPORT } from "../dto/class-validator-support.js";
import { enableDtoSupport } from "../dto/dto-support.js";
import { recordParam } from "./param-decorator.js";

/** Options of `@Args(schema, options)`. */
export interface StandardArgsOptions {
  /**
   * Passed as is to the library's JSON Schema converter. valibot's refuses a `v.check`
   * unless told to leave it to `validate`: `{ ignoreActions: ["check"] }`.
   */
  libraryOptions?: Record<string, unknown>;
}

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
 *
 * With a Standard Schema of objects (a zod 4 schema; a valibot one wrapped with
 * `toStandardJsonSchema` from `@valibot/to-json-schema`), the schema's JSON Schema is the
 * tool's input instead, each invoke is checked by the library's own `validate`
 * (refinements and transforms included), and the parameter receives its output value:
 *
 * ```ts
 * const Forecast = z.object({ city: z.string().min(1), days: z.number().int().default(3) });
 * getForecast(@Args(Forecast) args: z.output<typeof Forecast>)
 * ```
 *
 * A schema the closed schema subset cannot carry is refused at startup
 * (`SCHEMA_UNSUPPORTED`), never shown partly.
 */
export function Args(): ParameterDecorator;
/** `@Args(schema)`: the tool's arguments described by a Standard Schema of objects; see the overload above. */
export function Args(schema: StandardSchemaV1, options?: StandardArgsOptions): ParameterDecorator;
export function Args(...given: [] | [StandardSchemaV1, StandardArgsOptions?]): ParameterDecorator {
  // By count, not by value: `@Args(Schema)` whose `Schema` is still undefined (an import
  // cycle) is refused at startup as no Standard Schema, not read as a DTO.
  if (given.length === 0) {
    enableDtoSupport(CLASS_VALIDATOR_SUPPORT);
    return recordParam("@Args()", { kind: "args" });
  }
  const [schema, { libraryOptions } = {}] = given;
  return recordParam("@Args(schema)", {
    kind: "args",
    standard: { schema, ...(libraryOptions !== undefined && { libraryOptions }) },
  });
}
