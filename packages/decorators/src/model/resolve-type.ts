import { isParameterType, PARAMETER_TYPE_NAMES, type ParameterType } from "@executa/core";
import { DefinitionError } from "../errors/definition-error.js";
import type { EnumValue } from "../options/argument-options.js";
import type { ArgumentInput } from "./argument-input.js";
import { normalizeEnum } from "./normalize-enum.js";
import { sourceType } from "./source-schema.js";

/**
 * An argument's parameter type: the explicit `type`, else the validators' type (either
 * checked against the TypeScript type), else the type the source declares (read at build
 * time; it sees aliases, unions and enums that reflection reports as Object, so it wins
 * over reflection), else reflection, else the enum's values. Throws a
 * {@link DefinitionError} when none of them tells (`UNINFERABLE_TYPE`): never guessed.
 */
export function resolveType(input: ArgumentInput): ParameterType {
  return declaredType(input) ?? (input.source && sourceType(input.source.schema)) ?? inferredType(input);
}

/** The TypeScript type as far as it is known: from the source, else from reflection. */
function typeScriptType(input: ArgumentInput): ParameterType | undefined {
  // A type without a manifest form contradicts no declared type: the declared one replaces it.
  if (input.unsupported) return undefined;
  if (input.source) return sourceType(input.source.schema);
  return input.reflected.kind === "primitive" ? input.reflected.type : undefined;
}

/** The type the author or the validators declared, if it agrees with the TypeScript type. */
function declaredType(input: ArgumentInput): ParameterType | undefined {
  const { className, member, options } = input;
  const explicit: unknown = options.type;
  if (explicit !== undefined && !isParameterType(explicit)) {
    throw new DefinitionError(
      "INVALID_OPTION",
      className,
      member,
      `type "${String(explicit)}" is not a protocol type`,
      `use one of ${PARAMETER_TYPE_NAMES.join(", ")}`,
    );
  }
  const declared = explicit ?? input.inferred?.type;
  if (declared === undefined) return undefined;
  const written = typeScriptType(input);
  if (written !== undefined && !compatible(declared, written)) {
    const source = explicit !== undefined ? `type: "${explicit}"` : (input.inferred?.typeSource ?? declared);
    throw new DefinitionError(
      "TYPE_CONFLICT",
      className,
      member,
      `${source} contradicts the TypeScript type (${written})`,
      `make the TypeScript type and the declared type agree`,
    );
  }
  return declared;
}

/** The type reflection or the enum's values tell. */
function inferredType(input: ArgumentInput): ParameterType {
  const { className, member, decorator, options, reflected } = input;
  const inferred = input.inferred ?? {};
  if (reflected.kind === "primitive") {
    // A numeric TypeScript enum reflects as Number; its members are integers.
    const values = options.enum !== undefined ? normalizeEnum(options.enum) : inferred.enum;
    if (reflected.type === "number" && values !== undefined && enumType(values) === "integer")
      return "integer";
    return reflected.type;
  }
  if (reflected.kind === "class" && inferred.shape?.properties !== undefined) return "object";
  const fromEnum = options.enum !== undefined ? enumType(normalizeEnum(options.enum)) : undefined;
  if (fromEnum) return fromEnum;
  const what = reflected.kind === "class" ? `the class ${reflected.class.name}` : reflected.label;
  throw new DefinitionError(
    "UNINFERABLE_TYPE",
    className,
    member,
    `cannot infer the type: reflection says ${what} (unions, \`| undefined\`, interfaces, type aliases and \`any\` all reflect as Object)`,
    `build and run with the executa source reader (executa build, executa dev, the executa vitest plugin in tests), which reads such types from the source; or declare it as string, number, boolean or an array (\`name?: T\` plus optional: true for optional), or pass an explicit type to ${decorator}, e.g. { type: "object" }`,
  );
}

function compatible(declared: ParameterType, written: ParameterType): boolean {
  const numeric = (type: ParameterType) => type === "number" || type === "integer";
  if (numeric(written)) return numeric(declared);
  return declared === written;
}

/** The one type all enum values share, if any. */
function enumType(values: readonly EnumValue[] | string): ParameterType | undefined {
  if (typeof values === "string") return undefined;
  if (values.every((value) => typeof value === "string")) return "string";
  if (values.every((value) => typeof value === "boolean")) return "boolean";
  if (values.every((value) => typeof value === "number")) {
    return values.every((value) => Number.isInteger(value)) ? "integer" : "number";
  }
  return undefined;
}
