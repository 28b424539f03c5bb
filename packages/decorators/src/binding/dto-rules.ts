import {
  getMetadataStorage,
  type ValidationArguments,
  ValidationTypes,
  type ValidatorConstraintInterface,
} from "class-validator";
import type { ValidationMetadata } from "../dto/validator-converters.js";
import { type Precheck, precheckOf } from "./string-prechecks.js";

/** One class-validator rule of a property, with the constraint that decides it. */
interface Rule {
  metadata: ValidationMetadata;
  constraint: ValidatorConstraintInterface;
  /** Accepts the common strings the constraint accepts, cheaper; the constraint decides the rest. */
  precheck: Precheck | undefined;
}

/** `@IsOptional()`, `@ValidateIf()`: when one is false, the property's other rules are skipped. */
type Condition = (object: object, value: unknown) => boolean;

/** The rules of one property, in the order class-validator applies them. */
interface PropertyRules {
  name: string;
  /** `@IsDefined()`: applied whatever the conditions say. */
  defined: Rule[];
  conditions: Condition[];
  rules: Rule[];
}

/**
 * A DTO class's class-validator rules, compiled once: each rule's constraint called
 * directly per invoke instead of through class-validator's executor (which groups the
 * metadata, builds error objects and messages on every call). What the compiled form
 * does not reproduce is left to class-validator: `async` (a constraint that is
 * asynchronous) and `delegated` (a promise-valued property, or a nested object the
 * argument schema does not describe).
 */
export interface DtoRules {
  properties: PropertyRules[];
  /** A rule is asynchronous: class-validator's `validate` decides. */
  async: boolean;
  /** A rule the compiled form does not run: class-validator's `validateSync` decides. */
  delegated: boolean;
}

const compiled = new WeakMap<Function, DtoRules>();

/**
 * The compiled rules of `dto`; `nested` names the properties whose values the binder
 * checks as DTOs itself (their `@ValidateNested()` is then done).
 */
export function dtoRules(dto: Function, nested: ReadonlyMap<string, unknown>): DtoRules {
  let rules = compiled.get(dto);
  if (rules === undefined) {
    rules = compile(dto, nested);
    compiled.set(dto, rules);
  }
  return rules;
}

function compile(dto: Function, nested: ReadonlyMap<string, unknown>): DtoRules {
  const storage = getMetadataStorage();
  // The call class-validator's executor makes for `validateSync(instance)` without groups.
  const grouped = storage.groupByPropertyName(storage.getTargetValidationMetadatas(dto, "", false, false));
  const result: DtoRules = { properties: [], async: false, delegated: false };
  for (const [name, metadatas] of Object.entries(grouped)) {
    const property: PropertyRules = { name, defined: [], conditions: [], rules: [] };
    for (const metadata of metadatas) addMetadata(result, property, metadata, nested.has(name));
    result.properties.push(property);
  }
  return result;
}

type Compiled = { -readonly [K in keyof DtoRules]: K extends "properties" ? PropertyRules[] : DtoRules[K] };
type Property = {
  name: string;
  defined: Rule[];
  conditions: PropertyRules["conditions"][number][];
  rules: Rule[];
};

/** Files one metadata entry of a property under what it does; `nested`: the binder checks the property's DTOs. */
function addMetadata(
  result: Compiled,
  property: Property,
  metadata: ValidationMetadata,
  nested: boolean,
): void {
  switch (metadata.type) {
    case ValidationTypes.WHITELIST:
      return;
    case ValidationTypes.CONDITIONAL_VALIDATION:
      property.conditions.push(metadata.constraints[0]);
      return;
    case ValidationTypes.NESTED_VALIDATION:
      if (!nested) result.delegated = true;
      return;
    case ValidationTypes.IS_DEFINED:
    case ValidationTypes.CUSTOM_VALIDATION: {
      const list = metadata.type === ValidationTypes.IS_DEFINED ? property.defined : property.rules;
      for (const constraint of getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls)) {
        if (constraint.async) result.async = true;
        const instance = constraint.instance as ValidatorConstraintInterface;
        list.push({ metadata, constraint: instance, precheck: precheckOf(metadata) });
      }
      return;
    }
    default:
      result.delegated = true;
  }
}

/**
 * Whether `instance` passes every compiled rule, as class-validator's `validateSync` would
 * decide (only for rules that are neither `async` nor `delegated`). Which rule failed and
 * why is left to class-validator, so that its messages stay the author's.
 */
export function passesRules(rules: DtoRules, instance: object): boolean {
  // One arguments object per instance, its `property`, `value` and `constraints` set per
  // rule: constraints are synchronous here, so none keeps it past its call.
  const args: ValidationArguments = {
    targetName: instance.constructor.name,
    property: "",
    object: instance,
    value: undefined,
    constraints: [],
  };
  for (const property of rules.properties) {
    const value = (instance as Record<string, unknown>)[property.name];
    args.property = property.name;
    args.value = value;
    if (!allPass(property.defined, args)) return false;
    if (conditionsHold(property.conditions, instance, value) && !allPass(property.rules, args)) return false;
  }
  return true;
}

function conditionsHold(conditions: readonly Condition[], object: object, value: unknown): boolean {
  for (const condition of conditions) if (!condition(object, value)) return false;
  return true;
}

function allPass(rules: readonly Rule[], args: ValidationArguments): boolean {
  for (const rule of rules) {
    const { metadata } = rule;
    if (metadata.validateIf && !metadata.validateIf(args.object, args.value)) continue;
    args.constraints = metadata.constraints;
    if (!passes(rule, args)) return false;
  }
  return true;
}

/** One rule on the value, or with `each` on every element of an array, set or map. */
function passes(rule: Rule, args: ValidationArguments): boolean {
  const { value } = args;
  if (rule.metadata.each && (Array.isArray(value) || value instanceof Set || value instanceof Map)) {
    for (const element of Array.isArray(value) ? value : [...value.values()])
      if (!passesOne(rule, element, args)) return false;
    return true;
  }
  return passesOne(rule, value, args);
}

function passesOne({ precheck, constraint }: Rule, value: unknown, args: ValidationArguments): boolean {
  if (precheck !== undefined && typeof value === "string" && precheck(value)) return true;
  return Boolean(constraint.validate(value, args));
}
