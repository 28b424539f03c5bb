import { InvalidParamsError, type ObjectTypeSchema, type ParamIssue, type Schema } from "@executa/core";
import { type ValidationError, type ValidatorOptions, validate, validateSync } from "class-validator";
import { type DtoRules, dtoRules, passesRules } from "./dto-rules.js";
import { flattenValidationErrors } from "./flatten-validation-errors.js";
import { summarizeIssues } from "./invalid-arguments.js";
import { isPlainObject } from "./sanitize.js";

const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
};

/** One DTO instance of the tree being built, with where it sits. */
interface Built {
  instance: object;
  path: string;
  rules: DtoRules;
  /** Properties holding DTOs the binder builds and checks itself. */
  nested: ReadonlyMap<string, ValuePlan>;
}

/** How the checked values of an object schema become an instance of its class. */
interface ObjectPlan {
  target: Function;
  /** The properties whose values hold DTOs (directly or as array elements, at any depth). */
  nested: ReadonlyMap<string, ValuePlan>;
}

/** Where in a value DTOs are: the value itself (planned when first reached: a class may contain itself), or its elements. */
type ValuePlan = { plan: () => ObjectPlan } | { items: ValuePlan };

/**
 * Turns checked argument values into an instance of the DTO class and validates it. Every
 * object the schema value gives a class (`target`) — nested, in arrays, recursive through
 * `$ref` — becomes an instance of that class (getters and methods work), and each instance
 * is held to its own class-validator rules, issues carrying `parent.child` paths
 * (`items.1.unitPrice`).
 *
 * The values were already checked against the schema (types, enums, bounds, lengths,
 * unknown keys, at every depth), so what remains is the rules the schema has no field
 * for (`@IsEmail()`, `@Matches()`, custom constraints): run as compiled per class (see
 * `dto-rules.ts`), and by class-validator itself for a class whose rules it alone can
 * run, and to word the issues when a rule fails. Synchronous unless some class of the
 * tree has an asynchronous constraint.
 */
export function toValidatedDto(
  dto: Function,
  schema: ObjectTypeSchema,
  values: Record<string, unknown>,
  tool: string,
): object | Promise<object> {
  const built: Built[] = [];
  const root = instantiate(rootPlanOf(dto, schema), values, "", built);
  if (anyAsync(built)) return validateAsync(root, built, tool);
  const issues: ParamIssue[] = [];
  for (const entry of built) {
    if (entry.rules.delegated || !passesRules(entry.rules, entry.instance))
      append(issues, issuesOf(validateSync(entry.instance, VALIDATOR_OPTIONS), entry));
  }
  return checked(root, issues, tool);
}

function anyAsync(built: readonly Built[]): boolean {
  for (const entry of built) if (entry.rules.async) return true;
  return false;
}

async function validateAsync(root: object, built: readonly Built[], tool: string): Promise<object> {
  const found = await Promise.all(
    built.map(async (entry) => issuesOf(await validate(entry.instance, VALIDATOR_OPTIONS), entry)),
  );
  return checked(root, found.flat(), tool);
}

function checked(root: object, issues: readonly ParamIssue[], tool: string): object {
  if (issues.length === 0) return root;
  throw new InvalidParamsError(`Invalid arguments for tool "${tool}": ${summarizeIssues(issues)}`, [
    ...issues,
  ]);
}

/**
 * A new instance of the plan's class holding `values` (all of them: checked values hold
 * only known fields, and unchecked ones keep what class-validator's whitelist should see),
 * its DTO-valued properties built the same way.
 */
function instantiate(
  plan: ObjectPlan,
  values: Record<string, unknown>,
  path: string,
  built: Built[],
): object {
  const instance = new (plan.target as new () => Record<string, unknown>)();
  const { nested } = plan;
  built.push({ instance, path, rules: dtoRules(plan.target, nested), nested });
  // Assignment, like the loop below: the class's setters see the values.
  if (nested.size === 0) return Object.assign(instance, values);
  for (const key of Object.keys(values)) {
    const value = nested.get(key);
    instance[key] = value ? build(value, values[key], join(path, key), built) : values[key];
  }
  return instance;
}

/** A value with the objects its plan gives a class made instances of. */
function build(plan: ValuePlan, value: unknown, path: string, built: Built[]): unknown {
  if ("plan" in plan) return isPlainObject(value) ? instantiate(plan.plan(), value, path, built) : value;
  if (!Array.isArray(value)) return value;
  const { items } = plan;
  return value.map((element, index) => build(items, element, join(path, String(index)), built));
}

/** The plan of a DTO class whose schema value is `schema` (with its root `$defs`). */
function rootPlanOf(dto: Function, schema: ObjectTypeSchema): ObjectPlan {
  return objectPlan(dto, schema, schema.$defs ?? {});
}

// One plan per object schema (a recursive class's `$defs` entry is one), made on first use.
const plans = new WeakMap<ObjectTypeSchema, ObjectPlan>();

function objectPlan(
  target: Function,
  schema: ObjectTypeSchema,
  defs: Readonly<Record<string, Schema>>,
): ObjectPlan {
  let plan = plans.get(schema);
  if (plan === undefined || plan.target !== target) {
    const nested = new Map<string, ValuePlan>();
    plan = { target, nested };
    plans.set(schema, plan);
    for (const [name, field] of Object.entries(schema.properties ?? {})) {
      const value = valuePlan(field, defs);
      if (value) nested.set(name, value);
    }
  }
  return plan;
}

/** Where DTOs are in values of `schema`, or `undefined` when they hold none. */
function valuePlan(given: Schema, defs: Readonly<Record<string, Schema>>): ValuePlan | undefined {
  const schema = "$ref" in given ? defs[given.$ref.slice("#/$defs/".length)] : given;
  if (schema === undefined || !("type" in schema)) return undefined;
  if (schema.type === "object" && schema.target !== undefined) {
    const { target } = schema;
    return { plan: () => objectPlan(target, schema, defs) };
  }
  if (schema.type !== "array" || schema.items === undefined) return undefined;
  const items = valuePlan(schema.items, defs);
  return items && { items };
}

/**
 * class-validator's findings on one instance as issues under its path; what it says inside
 * the properties the binder builds itself is left out (their instances are checked on
 * their own, so each problem is reported once).
 */
function issuesOf(errors: readonly ValidationError[], entry: Built): ParamIssue[] {
  const own = errors.map((error) =>
    entry.nested.has(error.property) ? ({ ...error, children: [] } as ValidationError) : error,
  );
  return flattenValidationErrors(own, entry.path);
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

// Not `push(...more)`: spreading ~125 000 issues exceeds the call stack.
function append<T>(target: T[], more: readonly T[]): void {
  for (const item of more) target.push(item);
}
