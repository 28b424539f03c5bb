import type { ParameterType } from "@executa/core";
import { coerceValue, expectedOf } from "../binding/coerce.js";
import { UNSAFE_KEYS } from "../binding/sanitize.js";
import { InvalidOptionError } from "../errors/invalid-option-error.js";
import { MissingParamNameError } from "../errors/missing-param-name-error.js";
import { UninferableTypeError } from "../errors/uninferable-type-error.js";
import type { ArgumentOptions, EnumValue, ItemsOption } from "../options/argument-options.js";
import type { ReflectedKind } from "../reflection/reflect-types.js";
import { normalizeEnum } from "./normalize-enum.js";
import type { ArgumentSchema, ItemSchema } from "./types.js";

const TYPES: readonly ParameterType[] = ["string", "integer", "number", "boolean", "array", "object"];
const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

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

/**
 * Resolves an argument's schema: type from the explicit `type`, else what validators
 * said, else reflection, else the enum's values; `Object` and unknown classes are errors
 * (never guessed). Checks that enum, items and default fit the type. Throws a
 * `PluginDefinitionError` naming the member and the fix.
 */
export function resolveArgument(input: ArgumentInput): ArgumentSchema {
  const { className, member, decorator, options } = input;
  const inferred = input.inferred ?? {};
  const fail = (problem: string, fix: string) => new InvalidOptionError(className, member, problem, fix);

  if (typeof input.name !== "string" || input.name === "") {
    throw new MissingParamNameError(
      className,
      member,
      "the argument has no name",
      `give it the name the host sends, e.g. @Param("city"); runtime parameter names do not exist`,
    );
  }
  const name = input.name;
  if (UNSAFE_KEYS.has(name) || !ARGUMENT_NAME.test(name)) {
    throw new MissingParamNameError(
      className,
      member,
      `"${name}" is not a usable argument name`,
      "use letters, digits, _ . - (starting with a letter or _, at most 64 characters); __proto__, constructor and prototype are stripped from arguments",
    );
  }
  if (options === null || typeof options !== "object") {
    throw fail("the options are not an object", `pass an options object to ${decorator}`);
  }

  const type = resolveType(input);
  if (
    options.description !== undefined &&
    (typeof options.description !== "string" || options.description.trim() === "")
  ) {
    throw fail(
      "description is empty or not a string",
      "give a short description for the LLM, or leave it out",
    );
  }

  let items: ItemSchema | undefined;
  if (options.items !== undefined && options.items_type !== undefined) {
    throw fail("both items and items_type are given", "keep one of them");
  }
  const itemsOption = options.items ?? options.items_type;
  if (type === "array") {
    items =
      itemsOption !== undefined ? resolveItems(itemsOption, fail) : (inferred.items ?? { type: "string" });
  } else if (itemsOption !== undefined) {
    throw fail(`items is given but the type is ${type}`, "drop items, or make the argument an array");
  }

  let enumValues: readonly EnumValue[] | undefined;
  const enumSource = options.enum;
  if (enumSource !== undefined) {
    const normalized = normalizeEnum(enumSource);
    if (typeof normalized === "string")
      throw fail(normalized, 'list the allowed values, e.g. enum: ["c", "f"]');
    enumValues = normalized;
  } else enumValues = inferred.enum;
  if (enumValues !== undefined) {
    if (type === "array") {
      throw fail(
        "enum is given for an array",
        `put it on the elements: items: { type: "string", enum: [...] }`,
      );
    }
    checkEnumFitsType(enumValues, type, fail);
  }

  const schema: ArgumentSchema = { name, type, required: true, hasDefault: false };
  if (options.description !== undefined) schema.description = options.description;
  if (enumValues !== undefined) schema.enum = enumValues;
  if (items !== undefined) schema.items = items;
  if (inferred.fields !== undefined && type === "object") schema.fields = inferred.fields;

  const defaultGiven = Object.hasOwn(options, "default") && options.default !== undefined;
  const defaultValue = defaultGiven ? options.default : inferred.default?.value;
  if (defaultGiven || inferred.default !== undefined) {
    const checked = coerceValue(defaultValue, schema, name, { coerce: false });
    if (!checked.ok) {
      throw fail(
        `the default ${JSON.stringify(defaultValue)} does not fit: ${checked.issues[0]?.message ?? "invalid"}`,
        `give a default of type ${expectedOf(schema)}`,
      );
    }
    schema.hasDefault = true;
    schema.default = defaultValue;
  }

  if (options.required === true && (schema.hasDefault || options.optional === true)) {
    throw fail(
      schema.hasDefault
        ? "required: true together with a default"
        : "required: true together with optional: true",
      "an argument with a default is optional; drop required (or the default)",
    );
  }
  schema.required =
    options.required ?? !(schema.hasDefault || options.optional === true || inferred.optional === true);
  return schema;
}

function resolveType(input: ArgumentInput): ParameterType {
  const { className, member, decorator, options, reflected } = input;
  const inferred = input.inferred ?? {};
  const explicit = options.type;
  if (explicit !== undefined && !TYPES.includes(explicit)) {
    throw new InvalidOptionError(
      className,
      member,
      `type "${String(explicit)}" is not a protocol type`,
      `use one of ${TYPES.join(", ")}`,
    );
  }
  const declared = explicit ?? inferred.type;
  if (declared !== undefined) {
    if (reflected.kind === "primitive" && !compatible(declared, reflected.type)) {
      const source = explicit !== undefined ? `type: "${explicit}"` : (inferred.typeSource ?? declared);
      throw new InvalidOptionError(
        className,
        member,
        `${source} contradicts the TypeScript type (${reflected.type})`,
        `make the TypeScript type and the declared type agree`,
      );
    }
    return declared;
  }
  if (reflected.kind === "primitive") {
    // A numeric TypeScript enum reflects as Number; its members are integers.
    const values = options.enum !== undefined ? normalizeEnum(options.enum) : inferred.enum;
    if (reflected.type === "number" && values !== undefined && enumType(values) === "integer")
      return "integer";
    return reflected.type;
  }
  if (reflected.kind === "class" && inferred.fields !== undefined) return "object";
  const fromEnum = options.enum !== undefined ? enumType(normalizeEnum(options.enum)) : undefined;
  if (fromEnum) return fromEnum;
  const what = reflected.kind === "class" ? `the class ${reflected.class.name}` : reflected.label;
  throw new UninferableTypeError(
    className,
    member,
    `cannot infer the type: reflection says ${what} (unions, \`| undefined\`, interfaces, type aliases and \`any\` all reflect as Object)`,
    `declare it as string, number, boolean or an array (use \`name?: T\` for optional), or pass an explicit type to ${decorator}, e.g. { type: "object" }`,
  );
}

function compatible(declared: ParameterType, reflected: ParameterType): boolean {
  if (reflected === "number") return declared === "number" || declared === "integer";
  return declared === reflected;
}

function enumType(values: readonly EnumValue[] | string): ParameterType | undefined {
  if (typeof values === "string") return undefined;
  if (values.every((value) => typeof value === "string")) return "string";
  if (values.every((value) => typeof value === "boolean")) return "boolean";
  if (values.every((value) => typeof value === "number")) {
    return values.every((value) => Number.isInteger(value)) ? "integer" : "number";
  }
  return undefined;
}

function checkEnumFitsType(
  values: readonly EnumValue[],
  type: ParameterType,
  fail: (problem: string, fix: string) => Error,
): void {
  const fits = (value: EnumValue) =>
    type === "string"
      ? typeof value === "string"
      : type === "boolean"
        ? typeof value === "boolean"
        : type === "integer"
          ? Number.isInteger(value)
          : type === "number"
            ? typeof value === "number"
            : false;
  const bad = values.find((value) => !fits(value));
  if (bad !== undefined) {
    throw fail(
      `enum value ${JSON.stringify(bad)} is not of the argument's type ${type}`,
      "list values of the argument's type, or set type to match the values",
    );
  }
}

function resolveItems(option: ItemsOption, fail: (problem: string, fix: string) => Error): ItemSchema {
  const spec = typeof option === "string" ? { type: option } : option;
  if (spec === null || typeof spec !== "object" || !TYPES.includes(spec.type)) {
    throw fail(
      `items type ${JSON.stringify(typeof option === "string" ? option : spec?.type)} is not a protocol type`,
      `use one of ${TYPES.join(", ")}`,
    );
  }
  const items: ItemSchema = { type: spec.type };
  if (spec.enum !== undefined) {
    const values = normalizeEnum(spec.enum);
    if (typeof values === "string") throw fail(`items: ${values}`, "list the allowed element values");
    if (spec.type === "array" || spec.type === "object")
      throw fail("items enum on array/object elements", "put enum on primitive elements");
    checkEnumFitsType(values, spec.type, fail);
    items.enum = values;
  }
  if (spec.type === "array")
    items.items = spec.items !== undefined ? resolveItems(spec.items, fail) : { type: "string" };
  else if (spec.items !== undefined)
    throw fail(
      `items.items is given but the element type is ${spec.type}`,
      "drop it, or make the elements arrays",
    );
  return items;
}
