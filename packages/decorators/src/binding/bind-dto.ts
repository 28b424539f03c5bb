import { InvalidParamsError, type ParamIssue } from "@executa/core";
import { type ValidationError, type ValidatorOptions, validate, validateSync } from "class-validator";
import type { ArgumentSchema, ItemSchema } from "../model/types.js";
import { fieldsOfClass, objectFields } from "./dto-fields.js";
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
  /** Properties holding DTOs the binder builds and checks itself, with their schemas. */
  nested: ReadonlyMap<string, ArgumentSchema>;
}

/**
 * Turns checked argument values into an instance of the DTO class and validates it. Every
 * object the argument schema gives a DTO class — nested, in arrays, recursive — becomes an
 * instance of that class (getters and methods work), and each instance is held to its own
 * class-validator rules, issues carrying `parent.child` paths (`items.1.unitPrice`).
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
  values: Record<string, unknown>,
  tool: string,
): object | Promise<object> {
  const built: Built[] = [];
  const root = instantiate(dto, fieldsOfClass(dto) ?? NO_FIELDS, values, "", built);
  if (anyAsync(built)) return validateAsync(root, built, tool);
  const issues: ParamIssue[] = [];
  for (const entry of built) {
    if (entry.rules.delegated || !passesRules(entry.rules, entry.instance))
      append(issues, issuesOf(validateSync(entry.instance, VALIDATOR_OPTIONS), entry));
  }
  return checked(root, issues, tool);
}

const NO_FIELDS: readonly ArgumentSchema[] = [];

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
 * A new instance of `dto` holding `values` (all of them: checked values hold only known
 * fields, and unchecked ones keep what class-validator's whitelist should see), its
 * DTO-valued properties built the same way.
 */
function instantiate(
  dto: Function,
  fields: readonly ArgumentSchema[],
  values: Record<string, unknown>,
  path: string,
  built: Built[],
): object {
  const instance = new (dto as new () => Record<string, unknown>)();
  const nested = nestedProperties(fields);
  built.push({ instance, path, rules: dtoRules(dto, nested), nested });
  // Assignment, like the loop below: the class's setters see the values.
  if (nested.size === 0) return Object.assign(instance, values);
  for (const key of Object.keys(values)) {
    const schema = nested.get(key);
    instance[key] = schema ? build(schema, values[key], join(path, key), built) : values[key];
  }
  return instance;
}

/** A value with the objects its schema gives a DTO class made instances of. */
function build(schema: ItemSchema, value: unknown, path: string, built: Built[]): unknown {
  if (schema.type === "object" && schema.dto && isPlainObject(value))
    return instantiate(schema.dto, objectFields(schema) ?? [], value, path, built);
  const { items } = schema;
  if (schema.type === "array" && items && Array.isArray(value))
    return value.map((element, index) => build(items, element, join(path, String(index)), built));
  return value;
}

const nestedByFields = new WeakMap<readonly ArgumentSchema[], ReadonlyMap<string, ArgumentSchema>>();

/** The fields whose values hold DTOs (directly or as array elements, at any array depth), by name. */
function nestedProperties(fields: readonly ArgumentSchema[]): ReadonlyMap<string, ArgumentSchema> {
  let nested = nestedByFields.get(fields);
  if (nested === undefined) {
    nested = new Map(fields.filter(holdsDto).map((field) => [field.name, field]));
    nestedByFields.set(fields, nested);
  }
  return nested;
}

function holdsDto(schema: ItemSchema): boolean {
  if (schema.type === "object") return schema.dto !== undefined;
  return schema.type === "array" && schema.items !== undefined && holdsDto(schema.items);
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
