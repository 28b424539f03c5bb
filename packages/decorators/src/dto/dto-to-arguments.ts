import { type ObjectTypeSchema, PARAMETER_TYPES, type Schema, type SchemaTarget } from "@executa/core";
import { type SourceField, sourceInfoOf } from "@executa/core/internal";
import { plainToInstance } from "class-transformer";
import { Allow, getMetadataStorage as getValidatorStorage } from "class-validator";
import { isPlainObject } from "../binding/sanitize.js";
import { DefinitionError } from "../errors/definition-error.js";
import { METADATA_FIX } from "../errors/metadata-fix.js";
import type { FieldMetadata } from "../metadata/definitions.js";
import { getMetadataStorage, lineage } from "../metadata/storage.js";
import type { InferredArgument } from "../model/argument-input.js";
import { objectSchema } from "../model/arguments-schema.js";
import { resolveArgument } from "../model/resolve-argument.js";
import { sourceTarget, sourceType } from "../model/source-schema.js";
import type { ResolvedArgument } from "../model/types.js";
import { unsupportedField } from "../model/unsupported-type.js";
import { classifyReflectedType, propertyType, type ReflectedKind } from "../reflection/reflect-types.js";
import {
  type ConvertedValidators,
  convertValidators,
  type ValidationMetadata,
} from "./validator-converters.js";

/** One DTO class being read, with what every property needs. */
interface DtoReading {
  dto: Function;
  className: string;
  usedBy: string;
  validations: ValidationMetadata[];
  fields: readonly FieldMetadata[];
  /** A fresh instance: its property initializers are the defaults. */
  instance: object;
  /** What the source declares about the properties (the class's and its ancestors'), if known. */
  sourceFields: Readonly<Record<string, SourceField>>;
  /** DTO classes being read further up (nested DTOs referring back are not expanded again). */
  visiting: ReadonlySet<Function>;
}

/**
 * The arguments of an `@Args()` DTO class: one per property that carries a class-validator
 * decorator or `@Field`, or that the source declares (when the class went through the
 * executa source reader), in declaration order (ancestors' first). The type comes from
 * `@Field({ type })`, else the validators (converter table), else the source, else
 * `design:type`; a property initializer is the default; `@IsOptional()` or `?` makes it
 * optional; nested DTOs (`@ValidateNested()` with `design:type` or class-transformer's
 * `@Type`) become `object` arguments whose fields are checked too.
 *
 * A property the source declares without any decorator is allowed for class-validator's
 * whitelist (as `@Field` does); without the source reader, an undecorated property that
 * exists on an instance (an initializer) is a startup error rather than a silently missing
 * argument that fails every invoke.
 *
 * `usedBy` (e.g. `@Args() of Weather.getForecast`) is added to error messages.
 */
export function dtoToArguments(
  dto: Function,
  usedBy: string,
  visiting: ReadonlySet<Function> = new Set(),
): ResolvedArgument[] {
  const className = dto.name || "(anonymous DTO)";
  const chain = lineage(dto);
  const reading: DtoReading = {
    dto,
    className,
    usedBy,
    validations: getValidatorStorage()
      .getTargetValidationMetadatas(dto, "", true, false)
      .filter((metadata) => typeof metadata.target === "function"),
    fields: getMetadataStorage().fieldsOf(dto),
    instance: freshInstance(dto, className, usedBy),
    sourceFields: Object.assign({}, ...chain.map((ctor) => sourceInfoOf(ctor)?.fields)),
    visiting: new Set(visiting).add(dto),
  };
  const names = propertyNames(chain, reading.validations, reading.fields);
  checkUndecoratedProperties(reading, names);
  const args = names.map((property) => propertyToArgument(reading, property));
  return args;
}

/** Properties on a fresh instance that nothing describes: class-validator's whitelist would reject each invoke. */
function checkUndecoratedProperties(reading: DtoReading, names: readonly string[]): void {
  const property = Object.keys(reading.instance).find((key) => !names.includes(key));
  if (property === undefined) return;
  throw new DefinitionError(
    "UNDECORATED_FIELD",
    reading.className,
    `${property} (${reading.usedBy})`,
    "the property has no decorator, so it would be missing from the manifest and every invoke would " +
      `fail with "property ${property} should not exist"`,
    "decorate it (@IsString(), @IsOptional(), …, or @Field()), or build and run with the executa source " +
      "reader (executa build, executa dev, the executa vitest plugin in tests), which includes it from its TypeScript type",
  );
}

/** One DTO property as an argument: what reflection, the validators, `@Field` and the initializer say. */
function propertyToArgument(reading: DtoReading, property: string): ResolvedArgument {
  const { dto, className } = reading;
  const member = `${property} (${reading.usedBy})`;
  const reflectedType = propertyType(dto.prototype, property);
  const source = reading.sourceFields[property];
  const unsupported = unsupportedField(dto, property);
  if (reflectedType === undefined && source === undefined && unsupported === undefined) {
    throw new DefinitionError(
      "METADATA_MISSING",
      className,
      member,
      "decorator metadata (design:type) is missing",
      METADATA_FIX,
    );
  }
  const reflected = classifyReflectedType(reflectedType);
  const { argument: inferred, nested } = validatorFacts(reading, property, member);
  const field = reading.fields.findLast((candidate) => candidate.propertyName === property);
  if (source && !field && !reading.validations.some((metadata) => metadata.propertyName === property))
    Allow()(dto.prototype, property);
  const isArray = isArrayProperty(inferred, reflected, field, source);
  inferTypeFromEnum(inferred, reflected);
  const nestedClass =
    findNestedClass(dto, property, isArray, reflected.kind === "class" ? reflected.class : undefined) ??
    sourceClass(source, isArray);
  if (nestedClass === undefined && nested) throw nestedClassUnknown(reading, member);
  inferNesting(inferred, reading, property, { isArray, nestedClass });
  inferFromInitializer(inferred, (reading.instance as Record<string, unknown>)[property]);
  return resolveArgument({
    className,
    member,
    decorator: "@Field()",
    name: property,
    options: field?.options ?? {},
    reflected: nestedClass && !isArray ? { kind: "class", class: nestedClass } : reflected,
    inferred,
    ...(source && { source }),
    ...(unsupported && { unsupported }),
  });
}

/**
 * Whether the property is an array: as the validators, reflection or `@Field({ type })` say,
 * or, where the validators say no type, the source.
 */
function isArrayProperty(
  inferred: InferredArgument,
  reflected: ReflectedKind,
  field: FieldMetadata | undefined,
  source: SourceField | undefined,
): boolean {
  return (
    inferred.type === "array" ||
    (reflected.kind === "primitive" && reflected.type === "array") ||
    field?.options.type === "array" ||
    (source !== undefined && sourceType(source.schema) === "array" && inferred.type === undefined)
  );
}

/** What the property's class-validator decorators say, when they agree. */
function validatorFacts(reading: DtoReading, property: string, member: string): ConvertedValidators {
  const converted = convertValidators(
    reading.validations.filter((metadata) => metadata.propertyName === property),
  );
  if (converted.conflicts.length > 0) {
    throw new DefinitionError(
      "TYPE_CONFLICT",
      reading.className,
      member,
      converted.conflicts.join("; "),
      "keep one type validator per property",
    );
  }
  return converted;
}

/** A string-literal union reflects as Object; its @IsIn / @IsEnum values still say the type. */
function inferTypeFromEnum(inferred: InferredArgument, reflected: ReflectedKind): void {
  const enumType = inferred.type === undefined && inferred.enum ? typeOfValues(inferred.enum) : undefined;
  if (enumType && reflected.kind !== "primitive" && reflected.kind !== "class") {
    inferred.type = enumType;
    inferred.typeSource = "the @IsIn() / @IsEnum() values";
  }
}

/** Element schema of an array property, or the fields of a nested DTO, read recursively. */
function inferNesting(
  inferred: InferredArgument,
  reading: DtoReading,
  property: string,
  nesting: { isArray: boolean; nestedClass: Function | undefined },
): void {
  const { isArray, nestedClass } = nesting;
  const nestedDto = nestedClass && describesArguments(nestedClass) ? nestedClass : undefined;
  const shape = nestedDto ? nestedDtoShape(reading, property, nestedDto) : undefined;
  if (isArray) {
    const items = arrayItems(inferred.elements ?? {}, nestedClass, shape);
    if (items) inferred.items = items;
  } else if (nestedClass) {
    inferred.type ??= "object";
    if (shape) inferred.shape = shape;
  }
}

/**
 * The schema value of a nested DTO class; inside a value of that class (a cycle), its
 * `target` alone, which the tool's schema turns into a `$ref` to the class's one entry.
 */
function nestedDtoShape(reading: DtoReading, property: string, nestedClass: Function): ObjectTypeSchema {
  const target = nestedClass as SchemaTarget;
  if (reading.visiting.has(nestedClass)) return { type: "object", target };
  const usedBy = `${reading.className}.${property}, ${reading.usedBy}`;
  return objectSchema(dtoToArguments(nestedClass, usedBy, reading.visiting), nestedClass);
}

/**
 * Elements: the validators' `each` type, else objects of a nested DTO; `undefined` when
 * neither tells (the source's element type applies then, else strings).
 */
function arrayItems(
  elements: InferredArgument,
  nestedClass: Function | undefined,
  shape: ObjectTypeSchema | undefined,
): Schema | undefined {
  const type = elements.type ?? (nestedClass ? "object" : elements.enum ? "string" : undefined);
  if (type === undefined) return undefined;
  return {
    ...PARAMETER_TYPES[type].schema,
    ...(elements.enum !== undefined && { enum: elements.enum }),
    ...(elements.format !== undefined && type === "string" && { format: elements.format }),
    ...(type === "object" && shape),
  } as Schema;
}

/** A property initializer is the default when it is JSON; any other initial value makes the property optional. */
function inferFromInitializer(inferred: InferredArgument, initial: unknown): void {
  if (initial === undefined) return;
  if (isJsonValue(initial)) inferred.default = { value: initial };
  else inferred.optional = true;
}

/**
 * Whether a class has any class-validator or `@Field` metadata, or source-declared
 * properties (those without a manifest form included, to be reported as such), i.e. is a DTO.
 */
export function describesArguments(target: Function): boolean {
  return (
    getValidatorStorage().getTargetValidationMetadatas(target, "", true, false).length > 0 ||
    getMetadataStorage().fieldsOf(target).length > 0 ||
    lineage(target).some((ctor) => sourceNames(ctor).length > 0)
  );
}

/** The described properties, per class of the lineage: the source's order first, then decorated ones it lacks. */
function propertyNames(
  chain: Function[],
  validations: ValidationMetadata[],
  fields: readonly FieldMetadata[],
): string[] {
  const names: string[] = [];
  const add = (name: string) => {
    if (!names.includes(name)) names.push(name);
  };
  for (const ctor of chain) {
    for (const name of sourceNames(ctor)) add(name);
    for (const metadata of validations) if (metadata.target === ctor) add(metadata.propertyName);
    for (const field of fields) if (field.target === ctor) add(field.propertyName);
  }
  return names;
}

/**
 * The properties the source declares on one class, including those whose type has no
 * manifest form (not among its fields): listed so that they are reported, not dropped.
 */
function sourceNames(ctor: Function): string[] {
  const info = sourceInfoOf(ctor);
  const unsupported = (info?.unsupported ?? [])
    .filter((entry) => entry.index === undefined && !/[.[]/.test(entry.member))
    .map((entry) => entry.member);
  return [...Object.keys(info?.fields ?? {}), ...unsupported];
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
  // `@Type(() => Date)` makes dates, which are date-time strings on the wire, not nested DTOs.
  return ctor === Object || ctor === Date || typeof ctor !== "function" ? undefined : ctor;
}

/** The class the source names for the property's values (for an array, its elements'), if any. */
function sourceClass(source: SourceField | undefined, isArray: boolean): Function | undefined {
  return source && sourceTarget(source.schema, isArray);
}

/** `@ValidateNested()` on a property whose class nothing names would check nothing: refused at startup. */
function nestedClassUnknown(reading: DtoReading, member: string): DefinitionError {
  return new DefinitionError(
    "NESTED_CLASS_UNKNOWN",
    reading.className,
    member,
    "@ValidateNested() is on a property whose class is not known: neither decorator metadata, " +
      "class-transformer's @Type nor the source names it, so its values could not be made instances or checked",
    "type the property with the class (`payer!: Payer`, `items!: LineItem[]`) and build and run with the " +
      "executa source reader (executa build, executa dev, the executa vitest plugin in tests), or add " +
      "@Type(() => LineItem) from class-transformer",
  );
}

function freshInstance(dto: Function, className: string, usedBy: string): object {
  try {
    return new (dto as new () => object)();
  } catch (error) {
    throw new DefinitionError(
      "INSTANCE_FAILED",
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
