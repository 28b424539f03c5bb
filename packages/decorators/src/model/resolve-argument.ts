import {
  ARGUMENT_NAME_PATTERN,
  PARAMETER_TYPE_NAMES,
  PARAMETER_TYPES,
  type ParameterType,
} from "@executa/core";
import { coerceValue, expectedOf } from "../binding/coerce.js";
import { UNSAFE_KEYS } from "../binding/sanitize.js";
import { DefinitionError } from "../errors/definition-error.js";
import type { ArgumentOptions, EnumValue, ItemsOption } from "../options/argument-options.js";
import type { ReflectedKind } from "../reflection/reflect-types.js";
import { normalizeEnum } from "./normalize-enum.js";
import { resolveType } from "./resolve-type.js";
import type { ArgumentSchema, ItemSchema } from "./types.js";

/** What class-validator's decorators said about a DTO property (see dto-to-arguments). */
export interface InferredArgument {
  type?: ParameterType;
  items?: ItemSchema;
  enum?: readonly EnumValue[];
  optional?: boolean;
  /** A default found on a fresh instance (a property initializer). */
  default?: { value: unknown };
  fields?: readonly ArgumentSchema[];
  /** Which decorator said `type`, for messages. */
  typeSource?: string;
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
}

/** Makes the `INVALID_OPTION` error of one argument. */
type OptionFailure = (problem: string, fix: string) => DefinitionError;

/**
 * Resolves an argument's schema: type from the explicit `type`, else what validators
 * said, else reflection, else the enum's values; `Object` and unknown classes are errors
 * (never guessed). Checks that enum, items and default fit the type. Throws a
 * {@link DefinitionError} naming the member and the fix.
 */
export function resolveArgument(input: ArgumentInput): ArgumentSchema {
  const { className, member, decorator, options } = input;
  const inferred = input.inferred ?? {};
  const fail: OptionFailure = (problem, fix) =>
    new DefinitionError("INVALID_OPTION", className, member, problem, fix);
  const name = checkArgumentName(input);
  if (options === null || typeof options !== "object") {
    throw fail("the options are not an object", `pass an options object to ${decorator}`);
  }
  const type = resolveType(input);
  checkDescription(options, fail);
  const items = resolveArrayItems(type, options, inferred, fail);
  const enumValues = resolveEnum(type, options, inferred, fail);

  const schema: ArgumentSchema = { name, type, required: true, hasDefault: false };
  if (options.description !== undefined) schema.description = options.description;
  if (enumValues !== undefined) schema.enum = enumValues;
  if (items !== undefined) schema.items = items;
  if (inferred.fields !== undefined && type === "object") schema.fields = inferred.fields;
  applyDefault(schema, options, inferred, fail);
  schema.required = resolveRequired(schema, options, inferred, fail);
  return schema;
}

/** The argument's name, if the host can send it and binding keeps it. */
function checkArgumentName({ className, member, name }: ArgumentInput): string {
  if (typeof name !== "string" || name === "") {
    throw new DefinitionError(
      "ARGUMENT_NAME_MISSING",
      className,
      member,
      "the argument has no name",
      `give it the name the host sends, e.g. @Param("city"); runtime parameter names do not exist`,
    );
  }
  if (UNSAFE_KEYS.has(name) || !ARGUMENT_NAME_PATTERN.test(name)) {
    throw new DefinitionError(
      "INVALID_ARGUMENT_NAME",
      className,
      member,
      `"${name}" is not a usable argument name`,
      "use letters, digits, _ . - (starting with a letter or _, at most 64 characters); __proto__, constructor and prototype are stripped from arguments",
    );
  }
  return name;
}

function checkDescription(options: ArgumentOptions, fail: OptionFailure): void {
  const { description } = options;
  if (description !== undefined && (typeof description !== "string" || description.trim() === "")) {
    throw fail(
      "description is empty or not a string",
      "give a short description for the LLM, or leave it out",
    );
  }
}

/** The element schema of an array argument (default: strings); `items` on anything else is an error. */
function resolveArrayItems(
  type: ParameterType,
  options: ArgumentOptions,
  inferred: InferredArgument,
  fail: OptionFailure,
): ItemSchema | undefined {
  if (options.items !== undefined && options.items_type !== undefined) {
    throw fail("both items and items_type are given", "keep one of them");
  }
  const itemsOption = options.items ?? options.items_type;
  if (type === "array") {
    return itemsOption !== undefined
      ? resolveItems(itemsOption, fail)
      : (inferred.items ?? { type: "string" });
  }
  if (itemsOption !== undefined) {
    throw fail(`items is given but the type is ${type}`, "drop items, or make the argument an array");
  }
  return undefined;
}

/** The allowed values, from the options or the validators, checked against the type. */
function resolveEnum(
  type: ParameterType,
  options: ArgumentOptions,
  inferred: InferredArgument,
  fail: OptionFailure,
): readonly EnumValue[] | undefined {
  let values = inferred.enum;
  if (options.enum !== undefined) {
    const normalized = normalizeEnum(options.enum);
    if (typeof normalized === "string")
      throw fail(normalized, 'list the allowed values, e.g. enum: ["c", "f"]');
    values = normalized;
  }
  if (values === undefined) return undefined;
  if (type === "array") {
    throw fail(
      "enum is given for an array",
      `put it on the elements: items: { type: "string", enum: [...] }`,
    );
  }
  checkEnumFitsType(values, type, fail);
  return values;
}

/** Sets the default (explicit, else a DTO property initializer) after checking it fits the schema. */
function applyDefault(
  schema: ArgumentSchema,
  options: ArgumentOptions,
  inferred: InferredArgument,
  fail: OptionFailure,
): void {
  const defaultGiven = Object.hasOwn(options, "default") && options.default !== undefined;
  if (!defaultGiven && inferred.default === undefined) return;
  const value = defaultGiven ? options.default : inferred.default?.value;
  const checked = coerceValue(value, schema, schema.name, { coerce: false });
  if (!checked.ok) {
    throw fail(
      `the default ${JSON.stringify(value)} does not fit: ${checked.issues[0]?.message ?? "invalid"}`,
      `give a default of type ${expectedOf(schema)}`,
    );
  }
  schema.hasDefault = true;
  schema.default = value;
}

/** Required unless a default, `optional: true` or `@IsOptional()` says otherwise; `required: true` may not contradict them. */
function resolveRequired(
  schema: ArgumentSchema,
  options: ArgumentOptions,
  inferred: InferredArgument,
  fail: OptionFailure,
): boolean {
  if (options.required === true && (schema.hasDefault || options.optional === true)) {
    throw fail(
      schema.hasDefault
        ? "required: true together with a default"
        : "required: true together with optional: true",
      "an argument with a default is optional; drop required (or the default)",
    );
  }
  return options.required ?? !(schema.hasDefault || options.optional === true || inferred.optional === true);
}

function checkEnumFitsType(values: readonly EnumValue[], type: ParameterType, fail: OptionFailure): void {
  const bad = values.find((value) => !PARAMETER_TYPES[type].fits(value));
  if (bad !== undefined) {
    throw fail(
      `enum value ${JSON.stringify(bad)} is not of the argument's type ${type}`,
      "list values of the argument's type, or set type to match the values",
    );
  }
}

function resolveItems(option: ItemsOption, fail: OptionFailure): ItemSchema {
  const spec = typeof option === "string" ? { type: option } : option;
  if (spec === null || typeof spec !== "object" || !PARAMETER_TYPE_NAMES.includes(spec.type)) {
    throw fail(
      `items type ${JSON.stringify(typeof option === "string" ? option : spec?.type)} is not a protocol type`,
      `use one of ${PARAMETER_TYPE_NAMES.join(", ")}`,
    );
  }
  const items: ItemSchema = { type: spec.type };
  if (spec.enum !== undefined) items.enum = resolveItemsEnum(spec.enum, spec.type, fail);
  if (spec.type === "array") {
    items.items = spec.items !== undefined ? resolveItems(spec.items, fail) : { type: "string" };
  } else if (spec.items !== undefined) {
    throw fail(
      `items.items is given but the element type is ${spec.type}`,
      "drop it, or make the elements arrays",
    );
  }
  return items;
}

function resolveItemsEnum(
  source: NonNullable<Exclude<ItemsOption, string>["enum"]>,
  type: ParameterType,
  fail: OptionFailure,
): readonly EnumValue[] {
  const values = normalizeEnum(source);
  if (typeof values === "string") throw fail(`items: ${values}`, "list the allowed element values");
  if (type === "array" || type === "object")
    throw fail("items enum on array/object elements", "put enum on primitive elements");
  checkEnumFitsType(values, type, fail);
  return values;
}
