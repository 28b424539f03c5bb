/**
 * The protocol's parameter types, one module each. Adding a type: a module beside these
 * (its manifest form, `fits`, `fromText`), its name in {@link ParameterType}, one line in
 * `TYPE_MODULES`, its tests.
 */
import { arrayType } from "./array.js";
import { booleanType } from "./boolean.js";
import { integerType } from "./integer.js";
import { numberType } from "./number.js";
import { objectType } from "./object.js";
import type { ParameterTypeRules } from "./parameter-type.js";
import { stringType } from "./string.js";

/** A parameter `type` the protocol supports: `string`, `integer`, `number`, `boolean`, `array`, `object`. */
export type ParameterType = "string" | "integer" | "number" | "boolean" | "array" | "object";

const TYPE_MODULES = [
  stringType,
  integerType,
  numberType,
  booleanType,
  arrayType,
  objectType,
] as const satisfies readonly ParameterTypeRules<ParameterType>[];

/** Every parameter type's rules, by type name. */
export const PARAMETER_TYPES: Readonly<Record<ParameterType, ParameterTypeRules>> = Object.freeze(
  Object.fromEntries(TYPE_MODULES.map((rules) => [rules.name, rules])) as Record<
    ParameterType,
    ParameterTypeRules
  >,
);

/** The parameter type names, in the spec's order. */
export const PARAMETER_TYPE_NAMES: readonly ParameterType[] = TYPE_MODULES.map((rules) => rules.name);

/** Whether `value` names a parameter type. */
export function isParameterType(value: unknown): value is ParameterType {
  return typeof value === "string" && Object.hasOwn(PARAMETER_TYPES, value);
}

/** The rules of the parameter type `name`, or `undefined` for a name the protocol does not know. */
export function parameterType(name: unknown): ParameterTypeRules | undefined {
  return isParameterType(name) ? PARAMETER_TYPES[name] : undefined;
}

export { DEFAULT_ELEMENT_TYPE } from "./array.js";
export { isJsonObject } from "./object.js";
export type { ParameterTypeRules, TextReading } from "./parameter-type.js";
