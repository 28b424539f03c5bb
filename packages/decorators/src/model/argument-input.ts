import type { ObjectTypeSchema, ParameterType, Schema } from "@executa/core";
import type { SourceField, ValueFormat } from "@executa/core/internal";
import type { ArgumentOptions, EnumValue } from "../options/argument-options.js";
import type { ReflectedKind } from "../reflection/reflect-types.js";
import type { UnsupportedType } from "./unsupported-type.js";

/**
 * What was inferred about an argument rather than given in its decorator's options: what
 * class-validator's decorators said about a DTO property (see dto-to-arguments), then,
 * where they said nothing, what the source declares.
 */
export interface InferredArgument {
  type?: ParameterType;
  /** The elements of an array. */
  items?: Schema;
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
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: ValueFormat;
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
