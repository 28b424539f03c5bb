import {
  ARGUMENT_NAME_PATTERN,
  type ObjectTypeSchema,
  PARAMETER_TYPE_NAMES,
  PARAMETER_TYPES,
  type ParameterType,
  type Schema,
} from "@executa/core";
import { codecOfTypeName, type SourceField, withoutNull } from "@executa/core/internal";
import { coerceValue, expectedOf } from "../binding/coerce.js";
import { UNSAFE_KEYS } from "../binding/sanitize.js";
import { DefinitionError, type DefinitionErrorCode } from "../errors/definition-error.js";
import type { ArgumentOptions, EnumValue, ItemsOption } from "../options/argument-options.js";
import { ARGUMENT_OPTION_KEYS, ITEMS_OPTION_KEYS } from "../options/option-keys.js";
import type { ArgumentInput, InferredArgument } from "./argument-input.js";
import { checkOptionKeys, unknownOptionFix } from "./check-option-keys.js";
import { withInferredKeywords } from "./inferred-keywords.js";
import { normalizeEnum } from "./normalize-enum.js";
import { resolveType } from "./resolve-type.js";
import { checkRuleAgreement } from "./rule-agreement.js";
import { checkSourceAgreement } from "./source-agreement.js";
import { sourceShape, sourceValue } from "./source-schema.js";
import type { ResolvedArgument } from "./types.js";

import { unsupportedTypeError } from "./unsupported-type.js";

/**
 * The facts of one argument's schema value while it is resolved, in the order the value
 * lists them; see {@link schemaOf}.
 */
interface Draft {
  type: ParameterType;
  items?: Schema;
  enum?: readonly EnumValue[];
  enumNames?: readonly string[];
  minLength?: number;
  maxLength?: number;
  format?: string;
  minimum?: number;
  maximum?: number;
  shape?: Schema;
  description?: string;
  hasDefault: boolean;
  default?: unknown;
}

/** Makes the `INVALID_OPTION` (or another code's) error of one argument. */
type OptionFailure = (problem: string, fix: string, code?: DefinitionErrorCode) => DefinitionError;

/**
 * Resolves an argument's schema. Explicit options win, then what validators said, then
 * what the source declares, then reflection: the type from the explicit `type`, else the
 * validators, else the source, else reflection, else the enum's values; `Object` and
 * unknown classes are errors (never guessed). Description, enum, items, shape, default,
 * bounds and optionality are merged the same way. Checks that reflection does not
 * contradict the source facts (unless an explicit `type` decides), and that enum, items,
 * bounds and default fit the type. Throws a {@link DefinitionError} naming the member and the fix.
 */
export function resolveArgument(given: ArgumentInput): ResolvedArgument {
  const input = withCodec(given);
  const { className, member, decorator, options } = input;
  const inferred = withSource(input.inferred ?? {}, input.source);
  const fail: OptionFailure = (problem, fix, code = "INVALID_OPTION") =>
    new DefinitionError(code, className, member, problem, fix);
  const name = checkArgumentName(input);
  if (options === null || typeof options !== "object") {
    throw fail("the options are not an object", `pass an options object to ${decorator}`);
  }
  checkOptionKeys(options, ARGUMENT_OPTION_KEYS, { className, member, decorator: decoratorName(decorator) });
  if (input.unsupported && !overridesUnsupported(input)) {
    throw unsupportedTypeError(className, member, input.unsupported, decorator);
  }
  checkAgainstSource(input);
  checkRuleAgreement(input);
  const type = resolveType(input);
  checkDescription(options, fail);
  const items = resolveArrayItems(type, options, inferred, fail);
  const enumValues = resolveEnum(type, options, inferred, fail);

  const schema: Draft = { type, hasDefault: false };
  const description = options.description ?? inferred.description;
  if (description !== undefined) schema.description = description;
  applyEnum(schema, enumValues, inferred);
  if (items !== undefined) schema.items = items;
  applyShape(schema, inferred);
  applyBounds(schema, options, inferred, fail);
  applyLengths(schema, inferred, fail);
  const format =
    inferred.format ?? (input.reflected.kind === "primitive" ? input.reflected.format : undefined);
  if (format !== undefined && type === "string") schema.format = format;
  applyDefault(name, schema, options, inferred, fail);
  const required = resolveRequired(schema, options, inferred, fail);
  return { name, required, schema: withInferredKeywords(schemaOf(schema), inferred) };
}

/** The schema value of a draft: its type's own schema with the facts merged over it. */
function schemaOf(draft: Draft): Schema {
  const { type, shape, hasDefault, default: value, description, ...facets } = draft;
  return {
    ...PARAMETER_TYPES[type].schema,
    ...facets,
    ...(type === "object" && shape),
    ...(description !== undefined && { description }),
    ...(hasDefault && { default: value }),
  } as Schema;
}

/**
 * A member of a registered codec's type (`bigint`, a class of the author's), which the
 * source reader records as having no manifest form: a string of that codec.
 */
function withCodec(input: ArgumentInput): ArgumentInput {
  const codec =
    input.unsupported && codecOfTypeName(input.unsupported.type.replace(/\s*\|\s*undefined$/, ""));
  if (!codec) return input;
  const { unsupported: _, ...known } = input;
  const schema = { type: "string" as const, format: codec.name };
  return {
    ...known,
    inferred: { ...input.inferred, type: "string", typeSource: codec.typeName, format: codec.name },
    ...(input.source && { source: { ...input.source, schema } }),
  };
}

/** Reflection may not contradict the source facts, unless an explicit `type` decides or the type has no manifest form. */
function checkAgainstSource(input: ArgumentInput): void {
  const { className, member, decorator, reflected, source } = input;
  if (source === undefined || input.unsupported !== undefined || input.options.type !== undefined) return;
  checkSourceAgreement({
    className,
    member,
    decorator,
    reflected,
    source: source.schema,
    typeText: source.typeText,
  });
}

/**
 * Whether the options (or the validators) replace a type without a manifest form: an
 * explicit `type`, or `items` when only the array's elements have none.
 */
function overridesUnsupported({ options, inferred, unsupported }: ArgumentInput): boolean {
  if (options.type !== undefined || inferred?.type !== undefined) return true;
  const inElements = unsupported?.reason.startsWith("its elements") || unsupported?.member.includes("[]");
  return Boolean(inElements && (options.items !== undefined || inferred?.items !== undefined));
}

/**
 * The validators' facts, completed by what the source declares where they said nothing
 * (of a nullable type, its value type's: an argument's `null` is not sent).
 */
function withSource(inferred: InferredArgument, source: SourceField | undefined): InferredArgument {
  if (source === undefined) return inferred;
  const schema = withoutNull(source.schema);
  const merged: InferredArgument = { ...inferred };
  if (merged.description === undefined && source.description?.trim()) merged.description = source.description;
  if (merged.enum === undefined && "enum" in schema && schema.enum !== undefined && schema.enum.length > 0) {
    merged.enum = [...schema.enum];
    if ("enumNames" in schema && schema.enumNames !== undefined) merged.enumNames = [...schema.enumNames];
  }
  if ("type" in schema) mergeSourceFacets(merged, schema);
  if (source.optional) merged.optional = true;
  if (merged.default === undefined && source.default !== undefined)
    merged.default = { value: source.default };
  return merged;
}

/** The source's elements, object shape, bounds and format, where the validators said nothing. */
function mergeSourceFacets(merged: InferredArgument, schema: Schema & { readonly type?: string }): void {
  if (merged.items === undefined && schema.type === "array" && "items" in schema && schema.items)
    merged.items = sourceValue(schema.items);
  if (merged.shape === undefined && schema.type === "object" && "properties" in schema && schema.properties)
    merged.shape = sourceShape(schema as ObjectTypeSchema);
  if ("minimum" in schema) merged.minimum ??= schema.minimum;
  if ("maximum" in schema) merged.maximum ??= schema.maximum;
  if ("format" in schema) merged.format ??= schema.format as InferredArgument["format"];
}

/** An object's known fields, and the DTO class its values become instances of. */
function applyShape(schema: Draft, { shape }: InferredArgument): void {
  if (schema.type === "object" && shape !== undefined) schema.shape = shape;
}

/** `minimum` / `maximum`: explicit, else inferred; numbers only, and not crossed. */
function applyBounds(
  schema: Draft,
  options: ArgumentOptions,
  inferred: InferredArgument,
  fail: OptionFailure,
): void {
  const numeric = schema.type === "number" || schema.type === "integer";
  for (const bound of ["minimum", "maximum"] as const) {
    const explicit: unknown = options[bound];
    if (explicit !== undefined && !(typeof explicit === "number" && Number.isFinite(explicit)))
      throw fail(`${bound} ${JSON.stringify(explicit)} is not a number`, `give ${bound} as a finite number`);
    if (explicit !== undefined && !numeric)
      throw fail(
        `${bound} is given but the type is ${schema.type}`,
        `drop ${bound}, or make the argument a number`,
      );
    const value = explicit ?? inferred[bound];
    if (value !== undefined && numeric) schema[bound] = value;
  }
  if (schema.minimum !== undefined && schema.maximum !== undefined && schema.minimum > schema.maximum)
    throw fail(
      `minimum ${schema.minimum} is above maximum ${schema.maximum}`,
      "give a minimum at or below the maximum",
    );
}

/** `minLength` / `maxLength` from the validators, on strings only, and not crossed. */
function applyLengths(schema: Draft, inferred: InferredArgument, fail: OptionFailure): void {
  if (schema.type !== "string") return;
  const { minLength, maxLength } = inferred;
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength)
    throw fail(
      `minimum length ${minLength} is above maximum length ${maxLength}`,
      "give a minimum length at or below the maximum",
    );
  if (minLength !== undefined) schema.minLength = minLength;
  if (maxLength !== undefined) schema.maxLength = maxLength;
}

/** `@Param()` of `@Param("city", …)`: how an options message names the decorator. */
function decoratorName(decorator: string): string {
  return `${decorator.slice(0, decorator.indexOf("("))}()`;
}

/** The argument's name, if the host can send it and binding keeps it. */
function checkArgumentName({ className, member, name }: ArgumentInput): string {
  if (typeof name !== "string" || name === "") {
    throw new DefinitionError(
      "ARGUMENT_NAME_MISSING",
      className,
      member,
      "the argument has no name",
      `give it the name the host sends, e.g. @Param("city"), or build and run with the executa source ` +
        "reader (executa build, executa dev, the executa vitest plugin in tests), which takes the name " +
        "from the source; runtime parameter names do not exist",
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
): Schema | undefined {
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

/** The allowed values, with a numeric enum's names when they are the source's values (an explicit `enum` option replaces both). */
function applyEnum(
  schema: Draft,
  values: readonly EnumValue[] | undefined,
  inferred: InferredArgument,
): void {
  if (values === undefined) return;
  schema.enum = values;
  if (values === inferred.enum && inferred.enumNames !== undefined) schema.enumNames = inferred.enumNames;
}

/** Sets the default (explicit, else a DTO property initializer) after checking it fits the schema. */
function applyDefault(
  name: string,
  schema: Draft,
  options: ArgumentOptions,
  inferred: InferredArgument,
  fail: OptionFailure,
): void {
  const defaultGiven = Object.hasOwn(options, "default") && options.default !== undefined;
  if (!defaultGiven && inferred.default === undefined) return;
  const value = defaultGiven ? options.default : inferred.default?.value;
  const own = schemaOf(schema);
  const checked = coerceValue(value, own, name, { coerce: false });
  if (!checked.ok) {
    throw fail(
      `the default ${JSON.stringify(value)} does not fit: ${checked.issues[0]?.message ?? "invalid"}`,
      `give a default of type ${expectedOf(own)}`,
    );
  }
  schema.hasDefault = true;
  schema.default = value;
}

/** Required unless a default, `optional: true` or `@IsOptional()` says otherwise; `required: true` may not contradict them. */
function resolveRequired(
  schema: Draft,
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

function resolveItems(option: ItemsOption, fail: OptionFailure): Schema {
  const spec = typeof option === "string" ? { type: option } : option;
  if (spec === null || typeof spec !== "object" || !PARAMETER_TYPE_NAMES.includes(spec.type)) {
    throw fail(
      `items type ${JSON.stringify(typeof option === "string" ? option : spec?.type)} is not a protocol type`,
      `use one of ${PARAMETER_TYPE_NAMES.join(", ")}`,
    );
  }
  checkItemsKeys(spec, fail);
  const elements =
    spec.type === "array" && spec.items !== undefined ? resolveItems(spec.items, fail) : undefined;
  const enumValues = spec.enum !== undefined ? resolveItemsEnum(spec.enum, spec.type, fail) : undefined;
  const items = {
    ...PARAMETER_TYPES[spec.type].schema,
    ...(elements && { items: elements }),
    ...(enumValues && { enum: enumValues }),
  } as Schema;
  if (spec.type !== "array" && spec.items !== undefined) {
    throw fail(
      `items.items is given but the element type is ${spec.type}`,
      "drop it, or make the elements arrays",
    );
  }
  return items;
}

function checkItemsKeys(spec: object, fail: OptionFailure): void {
  const unknown = Object.keys(spec).find((key) => !ITEMS_OPTION_KEYS.includes(key));
  if (unknown === undefined) return;
  throw fail(
    `items has no option "${unknown}"`,
    unknownOptionFix(unknown, ITEMS_OPTION_KEYS),
    "UNKNOWN_OPTION",
  );
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
