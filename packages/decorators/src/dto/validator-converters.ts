/**
 * The converter table from class-validator metadata to manifest facts (in the spirit of
 * class-validator-jsonschema). Keys are class-validator's metadata names; a validator with
 * `{ each: true }` describes the elements of an array.
 *
 * Validators not listed here (and the constraint validators listed as validation-only)
 * are still enforced by class-validator on every invoke; they just have no field in the
 * manifest, which carries only what the protocol spec names.
 */
import type { ParameterType } from "@executa/core";
import type { getMetadataStorage } from "class-validator";
import type { EnumValue } from "../options/argument-options.js";

/** One entry of class-validator's metadata storage (the class itself is not exported). */
export type ValidationMetadata = ReturnType<
  ReturnType<typeof getMetadataStorage>["getTargetValidationMetadatas"]
>[number];

/** What the validators of one property said, collected by the converters. */
export interface ValidatorFacts {
  type?: ParameterType;
  typeSource?: string;
  itemType?: ParameterType;
  itemTypeSource?: string;
  enum?: readonly EnumValue[];
  itemEnum?: readonly EnumValue[];
  optional?: boolean;
  nested?: boolean;
  /** `@Min` / `@Max` bounds of the property (not of elements). */
  minimum?: number;
  maximum?: number;
  /** `@MinLength` / `@MaxLength` / `@Length` bounds of a string property, in characters (not of elements). */
  minLength?: number;
  maxLength?: number;
  /** `@IsDate()`: the value (or with `each`, each element) is a date-time string. */
  format?: "date-time";
  itemFormat?: "date-time";
  /** Problems found while converting (two validators saying different types). */
  conflicts: string[];
}

type Converter = (metadata: ValidationMetadata, facts: ValidatorFacts) => void;

const decoratorName = (metadata: ValidationMetadata) => {
  const name = metadata.name ?? metadata.type;
  return `@${name.charAt(0).toUpperCase()}${name.slice(1)}()`;
};

function typeOf(type: ParameterType): Converter {
  return (metadata, facts) => {
    const source = decoratorName(metadata);
    if (metadata.each) {
      if (facts.itemType !== undefined && facts.itemType !== type) {
        facts.conflicts.push(`${facts.itemTypeSource} and ${source} give the elements different types`);
      }
      facts.itemType = type;
      facts.itemTypeSource = `${source} with each`;
    } else {
      if (facts.type !== undefined && facts.type !== type) {
        facts.conflicts.push(`${facts.typeSource} and ${source} give different types`);
      }
      facts.type = type;
      facts.typeSource = source;
    }
  };
}

function enumOf(valuesOf: (metadata: ValidationMetadata) => unknown): Converter {
  return (metadata, facts) => {
    const values = valuesOf(metadata);
    if (!Array.isArray(values)) return;
    if (metadata.each) facts.itemEnum = values as EnumValue[];
    else facts.enum = values as EnumValue[];
  };
}

const validationOnly: Converter = () => {};

/** `@Min(n)` / `@Max(n)`: a bound of the property; with `each`, only enforced. */
function boundOf(bound: "minimum" | "maximum"): Converter {
  return (metadata, facts) => {
    const value: unknown = metadata.constraints?.[0];
    if (!metadata.each && typeof value === "number" && Number.isFinite(value)) facts[bound] = value;
  };
}

/** A whole, non-negative character count, or `undefined`. */
function lengthOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** `@MinLength(n)` / `@MaxLength(n)` / `@Length(min, max)`: length bounds of the property; with `each`, only enforced. */
function lengthsOf(bounds: readonly ("minLength" | "maxLength")[]): Converter {
  return (metadata, facts) => {
    if (metadata.each) return;
    bounds.forEach((bound, index) => {
      const value = lengthOf(metadata.constraints?.[index]);
      if (value !== undefined) facts[bound] = value;
    });
  };
}

/** `@IsDate()`: sent as an ISO 8601 string, which binding turns into a `Date`. */
const dateOf: Converter = (metadata, facts) => {
  typeOf("string")(metadata, facts);
  if (metadata.each) facts.itemFormat = "date-time";
  else facts.format = "date-time";
};

/** class-validator metadata name → what it contributes to the manifest. */
export const VALIDATOR_CONVERTERS: Readonly<Record<string, Converter>> = {
  isString: typeOf("string"),
  isInt: typeOf("integer"),
  isNumber: typeOf("number"),
  isNumberString: typeOf("string"),
  isBoolean: typeOf("boolean"),
  isDate: dateOf,
  isObject: typeOf("object"),
  isArray: (metadata, facts) => {
    if (facts.type !== undefined && facts.type !== "array") {
      facts.conflicts.push(`${facts.typeSource} and @IsArray() give different types`);
    }
    facts.type = "array";
    facts.typeSource = decoratorName(metadata);
  },
  isIn: enumOf((metadata) => metadata.constraints?.[0]),
  // IsEnum stores [enumObject, its values without reverse mappings].
  isEnum: enumOf((metadata) => metadata.constraints?.[1]),
  isOptional: (_metadata, facts) => {
    facts.optional = true;
  },
  // ValidateNested: the property (or each element) is a nested DTO, found through
  // design:type or class-transformer's @Type.
  nestedValidation: (metadata, facts) => {
    facts.nested = true;
    if (metadata.each) facts.itemType ??= "object";
  },
  // Required is the default; these only matter to class-validator.
  isDefined: validationOnly,
  isNotEmpty: validationOnly,
  whitelistValidation: validationOnly,
  // Bounds the manifest carries (minimum / maximum).
  min: boundOf("minimum"),
  max: boundOf("maximum"),
  // Length bounds the manifest carries (minLength / maxLength).
  isLength: lengthsOf(["minLength", "maxLength"]),
  minLength: lengthsOf(["minLength"]),
  maxLength: lengthsOf(["maxLength"]),
  // Bounds and formats: enforced, but the spec's parameter schema has no field for them.
  isPositive: validationOnly,
  isNegative: validationOnly,
  arrayMinSize: validationOnly,
  arrayMaxSize: validationOnly,
  arrayNotEmpty: validationOnly,
  arrayUnique: validationOnly,
  matches: validationOnly,
  isEmail: validationOnly,
  isUrl: validationOnly,
  isUuid: validationOnly,
};

/** Runs the table over one property's validation metadata. */
export function convertValidators(metadatas: readonly ValidationMetadata[]): ValidatorFacts {
  const facts: ValidatorFacts = { conflicts: [] };
  for (const metadata of metadatas) {
    // Built-in validators carry a name; ValidateNested and Allow only a type.
    const key = metadata.name ?? metadata.type;
    if (Object.hasOwn(VALIDATOR_CONVERTERS, key)) VALIDATOR_CONVERTERS[key]?.(metadata, facts);
  }
  return facts;
}
