/**
 * The protocol's parameter types, one module each. Adding a type: a module beside these
 * (everything known about it: its manifest form, `fits`, `fromText`, the constructor
 * reflection reports and the TypeScript types it stands for), its import and its entry in
 * `TYPE_MODULES`, its tests. {@link ParameterType} and the lookups follow from the table.
 */
import { arrayType } from "./array.js";
import { booleanType } from "./boolean.js";
import { integerType } from "./integer.js";
import { numberType } from "./number.js";
import { objectType } from "./object.js";
import type { ParameterTypeRules } from "./parameter-type.js";
import { stringType } from "./string.js";

/** The registered types, in the spec's order: messages list the names in it. */
const TYPE_MODULES = [
  stringType,
  integerType,
  numberType,
  booleanType,
  arrayType,
  objectType,
] as const satisfies readonly ParameterTypeRules[];

// Typed by inference, not as ParameterType[]: ParameterType is read from here, an exported
// name, so the public declarations never name the unexported TYPE_MODULES.
/** The parameter type names, in the spec's order. */
export const PARAMETER_TYPE_NAMES = Object.freeze(TYPE_MODULES.map((rules) => rules.name));

/** A parameter `type` the protocol supports: `string`, `integer`, `number`, `boolean`, `array`, `object`. */
export type ParameterType = (typeof PARAMETER_TYPE_NAMES)[number];

/** Every parameter type's rules, by type name. */
export const PARAMETER_TYPES: Readonly<Record<ParameterType, ParameterTypeRules>> = Object.freeze(
  Object.fromEntries(TYPE_MODULES.map((rules) => [rules.name, rules])) as Record<
    ParameterType,
    ParameterTypeRules
  >,
);

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
