import { plainToInstance } from "class-transformer";
import { getMetadataStorage as getValidatorStorage } from "class-validator";
import { isPlainObject } from "../binding/sanitize.js";
import { InvalidOptionError } from "../errors/invalid-option-error.js";
import { METADATA_FIX, MetadataMissingError } from "../errors/metadata-missing-error.js";
import { PluginInstanceError } from "../errors/plugin-instance-error.js";
import type { FieldMetadata } from "../metadata/definitions.js";
import { getMetadataStorage, lineage } from "../metadata/storage.js";
import { type InferredArgument, resolveArgument } from "../model/resolve-argument.js";
import type { ArgumentSchema, ItemSchema } from "../model/types.js";
import { classifyReflectedType, propertyType } from "../reflection/reflect-types.js";
import { convertValidators, type ValidationMetadata } from "./validator-converters.js";

/**
 * The arguments of an `@Args()` DTO class: one per property that carries a class-validator
 * decorator or `@Field`, in declaration order (ancestors' first). The type comes from
 * `@Field({ type })`, else the validators (converter table), else `design:type`; a
 * property initializer is the default; `@IsOptional()` makes it optional; nested DTOs
 * (`@ValidateNested()` with `design:type` or class-transformer's `@Type`) become `object`
 * arguments whose fields are checked too.
 *
 * `usedBy` (e.g. `@Args() of Weather.getForecast`) is added to error messages.
 */
export function dtoToArguments(
  dto: Function,
  usedBy: string,
  visiting: ReadonlySet<Function> = new Set(),
): ArgumentSchema[] {
  const className = dto.name || "(anonymous DTO)";
  const validations = getValidatorStorage()
    .getTargetValidationMetadatas(dto, "", true, false)
    .filter((metadata) => typeof metadata.target === "function");
  const fields = getMetadataStorage().fieldsOf(dto);
  const instance = freshInstance(dto, className, usedBy);
  const chain = lineage(dto);
  const visitingHere = new Set(visiting).add(dto);

  return propertyNames(chain, validations, fields).map((property) => {
    const member = `${property} (${usedBy})`;
    const reflectedType = propertyType(dto.prototype, property);
    if (reflectedType === undefined) {
      throw new MetadataMissingError(
        className,
        member,
        "decorator metadata (design:type) is missing",
        METADATA_FIX,
      );
    }
    const own = validations.filter((metadata) => metadata.propertyName === property);
    const facts = convertValidators(own);
    if (facts.conflicts.length > 0) {
      throw new InvalidOptionError(
        className,
        member,
        facts.conflicts.join("; "),
        "keep one type validator per property",
      );
    }
    const field = fields.findLast((candidate) => candidate.propertyName === property);
    const reflected = classifyReflectedType(reflectedType);
    const inferred: InferredArgument = {};
    if (facts.type !== undefined) inferred.type = facts.type;
    if (facts.typeSource !== undefined) inferred.typeSource = facts.typeSource;
    if (facts.enum !== undefined) inferred.enum = facts.enum;
    if (facts.optional) inferred.optional = true;
    // A string-literal union reflects as Object; its @IsIn / @IsEnum values still say the type.
    const enumType = facts.type === undefined && facts.enum ? typeOfValues(facts.enum) : undefined;
    if (enumType && reflected.kind !== "primitive" && reflected.kind !== "class") {
      inferred.type = enumType;
      inferred.typeSource = "the @IsIn() / @IsEnum() values";
    }

    const isArray =
      facts.type === "array" ||
      (reflected.kind === "primitive" && reflected.type === "array") ||
      field?.options.type === "array";
    const nestedClass = findNestedClass(
      dto,
      property,
      isArray,
      reflected.kind === "class" ? reflected.class : undefined,
    );
    const nestedFields =
      nestedClass && !visitingHere.has(nestedClass) && describesArguments(nestedClass)
        ? dtoToArguments(nestedClass, `${className}.${property}, ${usedBy}`, visitingHere)
        : undefined;

    if (isArray) {
      const items: ItemSchema = { type: facts.itemType ?? (nestedClass ? "object" : "string") };
      if (facts.itemEnum !== undefined) items.enum = facts.itemEnum;
      if (items.type === "array") items.items = { type: "string" };
      if (items.type === "object" && nestedFields) items.fields = nestedFields;
      inferred.items = items;
    } else if (nestedClass) {
      inferred.type ??= "object";
      if (nestedFields) inferred.fields = nestedFields;
    }

    const initial = (instance as Record<string, unknown>)[property];
    if (initial !== undefined) {
      if (isJsonValue(initial)) inferred.default = { value: initial };
      else inferred.optional = true;
    }
    return resolveArgument({
      className,
      member,
      decorator: "@Field()",
      name: property,
      options: field?.options ?? {},
      reflected: nestedClass && !isArray ? { kind: "class", class: nestedClass } : reflected,
      inferred,
    });
  });
}

/** Whether a class has any class-validator or `@Field` metadata, i.e. is a DTO. */
export function describesArguments(target: Function): boolean {
  return (
    getValidatorStorage().getTargetValidationMetadatas(target, "", true, false).length > 0 ||
    getMetadataStorage().fieldsOf(target).length > 0
  );
}

function propertyNames(
  chain: Function[],
  validations: ValidationMetadata[],
  fields: readonly FieldMetadata[],
): string[] {
  const names: string[] = [];
  for (const ctor of chain) {
    for (const metadata of validations)
      if (metadata.target === ctor && !names.includes(metadata.propertyName))
        names.push(metadata.propertyName);
    for (const field of fields)
      if (field.target === ctor && !names.includes(field.propertyName)) names.push(field.propertyName);
  }
  return names;
}

/**
 * The class of a nested DTO: `design:type` for a single object, otherwise what
 * class-transformer makes of a probe (so `@Type(() => Item)` on arrays is honoured by the
 * very copy of class-transformer that binds the arguments).
 */
function findNestedClass(
  dto: Function,
  property: string,
  isArray: boolean,
  reflected: Function | undefined,
): Function | undefined {
  if (!isArray && reflected) return reflected;
  const probe = { [property]: isArray ? [{}] : {} };
  let made: unknown;
  try {
    made = (plainToInstance(dto as new () => object, probe) as Record<string, unknown>)[property];
  } catch {
    return undefined;
  }
  const sample = isArray ? (Array.isArray(made) ? made[0] : undefined) : made;
  if (typeof sample !== "object" || sample === null) return undefined;
  const ctor = (sample as object).constructor;
  return ctor === Object || typeof ctor !== "function" ? undefined : ctor;
}

function freshInstance(dto: Function, className: string, usedBy: string): object {
  try {
    return new (dto as new () => object)();
  } catch (error) {
    throw new PluginInstanceError(
      className,
      `constructor (${usedBy})`,
      `the DTO class cannot be created without arguments: ${(error as Error).message}`,
      "give DTO classes a constructor without required arguments; defaults go in property initializers or @Field({ default })",
    );
  }
}

function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  return isPlainObject(value) && Object.values(value).every(isJsonValue);
}

/** The one parameter type every enum value shares, if there is one. */
function typeOfValues(values: readonly unknown[]): "string" | "integer" | "number" | undefined {
  if (values.length === 0) return undefined;
  if (values.every((value) => typeof value === "string")) return "string";
  if (values.every((value) => Number.isInteger(value))) return "integer";
  if (values.every((value) => typeof value === "number" && Number.isFinite(value))) return "number";
  return undefined;
}
