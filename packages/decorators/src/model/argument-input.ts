import type {
  ArraySchema,
  NumericSchema,
  ObjectTypeSchema,
  ParameterType,
  Schema,
  StringSchema,
} from "@executa/core";
import type { SourceField, ValueFormat } from "@executa/core/internal";
import type { ArgumentOptions, EnumValue } from "../options/argument-options.js";
import type { ReflectedKind } from "../reflection/reflect-types.js";
import type { UnsupportedType } from "./unsupported-type.js";

/** The keywords that bound a value (a number's, a string's, an array's), typed as the schema value types them. */
type Bounds = Pick<NumericSchema, "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum"> &
  Pick<StringSchema, "minLength" | "maxLength" | "pattern"> &
  Pick<ArraySchema, "minItems" | "maxItems" | "uniqueItems">;

/** The bounds as the converters and the merge write them; each applies where the value's type has it. */
type InferredBounds = { -readonly [Keyword in keyof Bounds]?: Bounds[Keyword] };

/**
 * What was inferred about an argument (or, as `elements`, about each element of an array
 * argument) rather than given in its decorator's options: what class-validator's decorators
 * said about a DTO property (the converter table writes it), then, where they said nothing,
 * what the source declares. Resolving checks the bounds `minimum` / `maximum` and the
 * lengths against the type and each other; the other bounds are kept where the type has them.
 */
export interface InferredArgument extends InferredBounds {
  type?: ParameterType;
  /** The elements of an array. */
  items?: Schema;
  /**
   * What is known of each element (class-validator's `each: true`): merged over the
   * element schema `items` resolves to, whichever says it.
   */
  elements?: InferredArgument;
  enum?: readonly EnumValue[];
  /** The source's numeric enum member names, one per `enum` value. */
  enumNames?: readonly string[];
  optional?: boolean;
  /** A default found on a fresh instance (a property initializer) or in the source. */
  default?: { value: unknown };
  /**
   * The known shape of an object: its properties, and the nested DTO class its values
   * become (`target`; without properties inside a value of that class, where it recurs).
   */
  shape?: ObjectTypeSchema;
  /** Which decorator said `type`, for messages. */
  typeSource?: string;
  /** The doc comment. */
  description?: string;
  format?: ValueFormat;
  /** Rules no keyword expresses, in words (`a URL`, `checked by @IsAlpha()`). */
  rules?: string[];
}

/** Everything known about one argument before it is resolved. */
export interface ArgumentInput {
  className: string;
  /** E.g. `getWeather, parameter #0 "city"` or `days` (a DTO property). */
  member: string;
  /** The decorator named in fixes: `@Param("city", …)` or `@Field(…)`. */
  decorator: string;
  name: unknown;
  options: ArgumentOptions;
  reflected: ReflectedKind;
  inferred?: InferredArgument;
  /**
   * What the source declares (read at build time), when the class went through the source
   * reader: the declared type's schema, its optionality, doc comment, default and text.
   */
  source?: SourceField;
  /** The source reader found the TypeScript type without a faithful manifest form. */
  unsupported?: UnsupportedType;
}
