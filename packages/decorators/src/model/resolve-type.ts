import { isParameterType, PARAMETER_TYPE_NAMES, type ParameterType } from "@executa/core";
import { DefinitionError } from "../errors/definition-error.js";
import type { EnumValue } from "../options/argument-options.js";
import { normalizeEnum } from "./normalize-enum.js";
import type { ArgumentInput } from "./resolve-argument.js";

/**
 * An argument's parameter type: the explicit `type`, else the validators' type (either
 * checked against the TypeScript type), else reflection, else the enum's values. Throws
 * a {@link DefinitionError} when none of them tells (`UNINFERABLE_TYPE`): never guessed.
 */
export function resolveType(input: ArgumentInput): ParameterType {
  return declaredType(input) ?? inferredType(input);
}

/** The type the author or the validators declared, if it agrees with the TypeScript type. */
function declaredType(input: ArgumentInput): ParameterType | undefined {
  const { className, member, options, reflected } = input;
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
  if (reflected.kind === "primitive" && !compatible(declared, reflected.type)) {
    const source = explicit !== undefined ? `type: "${explicit}"` : (input.inferred?.typeSource ?? declared);
    throw new DefinitionError(
      "TYPE_CONFLICT",
      className,
      member,
      `${source} contradicts the TypeScript type (${reflected.type})`,
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
  if (reflected.kind === "class" && inferred.fields !== undefined) return "object";
  const fromEnum = options.enum !== undefined ? enumType(normalizeEnum(options.enum)) : undefined;
  if (fromEnum) return fromEnum;
  const what = reflected.kind === "class" ? `the class ${reflected.class.name}` : reflected.label;
  throw new DefinitionError(
    "UNINFERABLE_TYPE",
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
