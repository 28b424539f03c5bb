/**
 * The converter table from class-validator metadata to schema facts (in the spirit of
 * class-validator-jsonschema). Keys are class-validator's metadata names; a validator with
 * `{ each: true }` describes the elements of an array.
 *
 * A constraint with a JSON Schema keyword lands in the property's (or its elements')
 * schema value; one without (`@IsUrl()`, `@ArrayUnique(selector)`, `@Matches` with flags, a
 * validator not in the table, a custom `@Validate`) is said in words (`rules`), which every
 * projection puts in the description. Either way class-validator enforces it on every invoke.
 */
import type { ParameterType } from "@executa/core";
import type { getMetadataStorage } from "class-validator";
import type { InferredArgument } from "../model/argument-input.js";
import type { EnumValue } from "../options/argument-options.js";

/** One entry of class-validator's metadata storage (the class itself is not exported). */
export type ValidationMetadata = ReturnType<
  ReturnType<typeof getMetadataStorage>["getTargetValidationMetadatas"]
>[number];

/**
 * What the validators of one property said, in the shape resolving reads: the property's
 * facts, with its elements' (`each: true`) as `argument.elements`.
 */
export interface ConvertedValidators {
  argument: InferredArgument;
  /** `@ValidateNested()`: the property (or each element) is a nested DTO. */
  nested: boolean;
  /** Problems found while converting (two validators saying different types). */
  conflicts: string[];
}

/** Writes what one validator says into `facts`: the property's, or with `each` its elements'. */
type Converter = (
  metadata: ValidationMetadata,
  facts: InferredArgument,
  converted: ConvertedValidators,
) => void;

const decoratorName = (metadata: ValidationMetadata) => {
  const name = metadata.name ?? metadata.type;
  return `@${name.charAt(0).toUpperCase()}${name.slice(1)}()`;
};

function typeOf(type: ParameterType): Converter {
  return (metadata, facts, converted) => {
    const source = decoratorName(metadata);
    if (facts.type !== undefined && facts.type !== type) {
      const what = metadata.each ? "the elements different types" : "different types";
      converted.conflicts.push(`${facts.typeSource} and ${source} give ${what}`);
    }
    facts.type = type;
    facts.typeSource = metadata.each ? `${source} with each` : source;
  };
}

function enumOf(valuesOf: (metadata: ValidationMetadata) => unknown): Converter {
  return (metadata, facts) => {
    const values = valuesOf(metadata);
    if (Array.isArray(values)) facts.enum = values as EnumValue[];
  };
}

const validationOnly: Converter = () => {};

/** `@Min(n)` / `@Max(n)`: a bound of the property (with `each`, of its elements). */
function boundOf(bound: "minimum" | "maximum"): Converter {
  return (metadata, facts) => {
    const value: unknown = metadata.constraints?.[0];
    if (typeof value === "number" && Number.isFinite(value)) facts[bound] = value;
  };
}

/** `@IsPositive()` / `@IsNegative()`: an exclusive bound of 0. */
function exclusiveOf(bound: "exclusiveMinimum" | "exclusiveMaximum"): Converter {
  return (_metadata, facts) => {
    facts[bound] = 0;
  };
}

/**
 * `@ArrayMinSize(n)` / `@ArrayMaxSize(n)` / `@ArrayNotEmpty()` (`at`: the count it fixes).
 * Two of them (`@ArrayNotEmpty() @ArrayMinSize(3)`) both apply: the tighter count is shown.
 */
function countOf(bound: "minItems" | "maxItems", at?: number): Converter {
  const tighter = bound === "minItems" ? Math.max : Math.min;
  return (metadata, facts) => {
    const value = at ?? lengthOf(metadata.constraints?.[0]);
    if (value === undefined) return;
    const known = facts[bound];
    facts[bound] = known === undefined ? value : tighter(known, value);
  };
}

/**
 * `@ArrayUnique()`: `uniqueItems`. With a selector (`@ArrayUnique((item) => item.id)`),
 * elements are unique by a key derived from each, which JSON Schema cannot say: in words.
 */
const uniqueOf: Converter = (metadata, facts, converted) => {
  if (hasSelector(metadata)) ruleOf(() => "unique elements")(metadata, facts, converted);
  else facts.uniqueItems = true;
};

/**
 * Whether an `@ArrayUnique()` was given a selector, which class-validator keeps only inside
 * its check: asked about two distinct elements that refuse to be looked into, the check
 * without one (or with the identity) accepts them untouched; a selector reads them, or
 * maps both to one key.
 */
function hasSelector(metadata: ValidationMetadata): boolean {
  const Check = metadata.constraintCls as (new () => { validate(value: unknown): unknown }) | undefined;
  if (Check === undefined) return true;
  const sealed = () =>
    new Proxy(
      {},
      {
        get: refuseLook,
        has: refuseLook,
        ownKeys: refuseLook,
        getOwnPropertyDescriptor: refuseLook,
        getPrototypeOf: refuseLook,
      },
    );
  try {
    return new Check().validate([sealed(), sealed()]) !== true;
  } catch {
    return true;
  }
}

function refuseLook(): never {
  throw new Error("looked into");
}

/** A rule said in words (`an absolute URL`), of the property or with `each` of its elements. */
function ruleOf(words: (metadata: ValidationMetadata) => string | undefined): Converter {
  return (metadata, facts) => {
    const said = words(metadata);
    if (said === undefined) return;
    facts.rules ??= [];
    if (!facts.rules.includes(said)) facts.rules.push(said);
  };
}

/** A format that is an annotation only (`email`, `uuid`): the value stays a string. */
function formatOf(format: string, more?: (metadata: ValidationMetadata) => string | undefined): Converter {
  return (metadata, facts, converted) => {
    typeOf("string")(metadata, facts, converted);
    facts.format = format;
    ruleOf(more ?? (() => undefined))(metadata, facts, converted);
  };
}

/**
 * Flags JSON Schema's `pattern` means too: none, or `u` (its patterns are Unicode-aware).
 * `i`, `m`, `s` change what matches and `g`, `y` make class-validator's test stateful.
 */
const PATTERN_FLAGS = new Set(["", "u"]);

/** `@Matches(re)`: `pattern` when the expression has no flags JSON Schema cannot express, else a rule in words. */
const matchesOf: Converter = (metadata, facts, converted) => {
  const [given, modifiers] = metadata.constraints ?? [];
  const expression =
    given instanceof RegExp
      ? given
      : typeof given === "string"
        ? safeRegExp(given, typeof modifiers === "string" ? modifiers : undefined)
        : undefined;
  if (expression === undefined) return;
  if (PATTERN_FLAGS.has(expression.flags)) facts.pattern = expression.source;
  else ruleOf(() => `matching ${String(expression)}`)(metadata, facts, converted);
};

function safeRegExp(source: string, flags: string | undefined): RegExp | undefined {
  try {
    return new RegExp(source, flags);
  } catch {
    return undefined;
  }
}

/** A whole, non-negative character count, or `undefined`. */
function lengthOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** `@MinLength(n)` / `@MaxLength(n)` / `@Length(min, max)`: length bounds of the property (with `each`, of its elements). */
function lengthsOf(bounds: readonly ("minLength" | "maxLength")[]): Converter {
  return (metadata, facts) => {
    bounds.forEach((bound, index) => {
      const value = lengthOf(metadata.constraints?.[index]);
      if (value !== undefined) facts[bound] = value;
    });
  };
}

/** `@IsDate()`: sent as an ISO 8601 string, which binding turns into a `Date`. */
const dateOf: Converter = (metadata, facts, converted) => {
  typeOf("string")(metadata, facts, converted);
  facts.format = "date-time";
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
  // The property is the array, `each` or not.
  isArray: (metadata, _facts, { argument, conflicts }) => {
    if (argument.type !== undefined && argument.type !== "array") {
      conflicts.push(`${argument.typeSource} and @IsArray() give different types`);
    }
    argument.type = "array";
    argument.typeSource = decoratorName(metadata);
  },
  isIn: enumOf((metadata) => metadata.constraints?.[0]),
  // IsEnum stores [enumObject, its values without reverse mappings].
  isEnum: enumOf((metadata) => metadata.constraints?.[1]),
  // The property is optional, `each` or not.
  isOptional: (_metadata, _facts, { argument }) => {
    argument.optional = true;
  },
  // ValidateNested: the property (or each element) is a nested DTO, found through
  // design:type or class-transformer's @Type.
  nestedValidation: (metadata, facts, converted) => {
    converted.nested = true;
    if (metadata.each) facts.type ??= "object";
  },
  // Required is the default; these only matter to class-validator (@IsNotEmpty() also refuses "").
  isDefined: validationOnly,
  isNotEmpty: ruleOf(() => "not empty"),
  whitelistValidation: validationOnly,
  // Bounds the manifest carries (minimum / maximum).
  min: boundOf("minimum"),
  max: boundOf("maximum"),
  // Length bounds the manifest carries (minLength / maxLength).
  isLength: lengthsOf(["minLength", "maxLength"]),
  minLength: lengthsOf(["minLength"]),
  maxLength: lengthsOf(["maxLength"]),
  // Keywords of the schema value.
  isPositive: exclusiveOf("exclusiveMinimum"),
  isNegative: exclusiveOf("exclusiveMaximum"),
  arrayMinSize: countOf("minItems"),
  arrayMaxSize: countOf("maxItems"),
  arrayNotEmpty: countOf("minItems", 1),
  matches: matchesOf,
  isEmail: formatOf("email"),
  isUuid: formatOf("uuid", (metadata) => {
    const version: unknown = metadata.constraints?.[0];
    return version === undefined || version === null || version === "all"
      ? undefined
      : `UUID version ${String(version)}`;
  }),
  arrayUnique: uniqueOf,
  // No keyword: `uri` is a codec that would make the value a URL.
  isUrl: ruleOf(() => "a URL"),
};

/** Metadata types that are no constraint on the value (optionality, conditions, nesting, whitelisting). */
const NOT_A_RULE = new Set([
  "conditionalValidation",
  "nestedValidation",
  "whitelistValidation",
  "isDefined",
  "promiseValidation",
]);

/**
 * A validator the table does not know (`@IsAlpha()`, a custom `@Validate(Rule)`): still
 * enforced, so said by its decorator's name.
 */
function unknownRule(
  metadata: ValidationMetadata,
  facts: InferredArgument,
  converted: ConvertedValidators,
): void {
  if (NOT_A_RULE.has(metadata.type)) return;
  const constraint = (metadata.constraintCls as { name?: string } | undefined)?.name;
  const by = metadata.name ? decoratorName(metadata) : constraint;
  if (by) ruleOf(() => `checked by ${by}`)(metadata, facts, converted);
}

/** Runs the table over one property's validation metadata. */
export function convertValidators(metadatas: readonly ValidationMetadata[]): ConvertedValidators {
  const elements: InferredArgument = {};
  const converted: ConvertedValidators = { argument: { elements }, nested: false, conflicts: [] };
  for (const metadata of metadatas) {
    const facts = metadata.each ? elements : converted.argument;
    // Built-in validators carry a name; ValidateNested and Allow only a type.
    const key = metadata.name ?? metadata.type;
    if (Object.hasOwn(VALIDATOR_CONVERTERS, key)) VALIDATOR_CONVERTERS[key]?.(metadata, facts, converted);
    else unknownRule(metadata, facts, converted);
  }
  return converted;
}
