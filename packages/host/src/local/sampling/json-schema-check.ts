/**
 * A small JSON Schema checker for the keywords structured-output schemas use (`type`,
 * `properties`, `required`, `additionalProperties`, `items`, `enum`, `const`, the length,
 * size and range bounds, `pattern`, `anyOf`/`oneOf`/`allOf`, local `$ref`): enough for
 * the local host to say, as a real one does, whether an answer matches its schema.
 */

import { parameterType } from "@executa/core";

/** One way a value breaks its schema; `path` like `keywords.2` (empty for the root). */
export interface SchemaIssue {
  path: string;
  message: string;
}

type Schema = Record<string, unknown>;

/** Every way `value` breaks `schema` (empty when it matches). */
export function schemaIssues(value: unknown, schema: Schema): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  check(value, schema, schema, "", issues);
  return issues;
}

/** `#/$defs/Name` (or `#/definitions/Name`) of `root`; other references are not followed. */
export function resolveRef(schema: Schema, root: Schema): Schema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string" && hops < 32; hops++) {
    const parts = current.$ref.replace(/^#\/?/, "").split("/").filter(Boolean);
    let target: unknown = root;
    for (const part of parts) target = (target as Schema | undefined)?.[part.replace(/~1/g, "/")];
    if (!isSchema(target)) return {};
    current = target;
  }
  return current;
}

function check(value: unknown, raw: Schema, root: Schema, path: string, issues: SchemaIssue[]): void {
  const schema = resolveRef(raw, root);
  const add = (message: string) => issues.push({ path, message });
  if (!typeMatches(value, schema.type)) {
    add(`must be ${[schema.type].flat().join(" or ")}, got ${typeName(value)}`);
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => sameJson(option, value))) {
    add(`must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(", ")}`);
  }
  if ("const" in schema && !sameJson(schema.const, value)) add(`must be ${JSON.stringify(schema.const)}`);
  checkCombinators(value, schema, root, path, issues);
  if (typeof value === "string") checkString(value, schema, add);
  else if (typeof value === "number") checkNumber(value, schema, add);
  else if (Array.isArray(value)) checkArray(value, schema, root, path, issues);
  else if (typeof value === "object" && value !== null)
    checkObject(value as Schema, schema, root, path, issues);
}

function checkCombinators(value: unknown, schema: Schema, root: Schema, path: string, issues: SchemaIssue[]) {
  const matching = (list: unknown) =>
    (Array.isArray(list) ? list : []).filter((option) => isSchema(option) && isValid(value, option, root));
  if (Array.isArray(schema.anyOf) && matching(schema.anyOf).length === 0) {
    issues.push({ path, message: "matches none of anyOf" });
  }
  if (Array.isArray(schema.oneOf) && matching(schema.oneOf).length !== 1) {
    issues.push({ path, message: "must match exactly one of oneOf" });
  }
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) if (isSchema(part)) check(value, part, root, path, issues);
  }
}

function isValid(value: unknown, schema: Schema, root: Schema): boolean {
  const found: SchemaIssue[] = [];
  check(value, schema, root, "", found);
  return found.length === 0;
}

function checkString(value: string, schema: Schema, add: (message: string) => void): void {
  const length = [...value].length;
  if (typeof schema.minLength === "number" && length < schema.minLength)
    add(`must be at least ${schema.minLength} characters`);
  if (typeof schema.maxLength === "number" && length > schema.maxLength)
    add(`must be at most ${schema.maxLength} characters`);
  if (typeof schema.pattern === "string") {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(schema.pattern, "u");
    } catch {
      pattern = undefined; // a pattern JavaScript cannot read is not the answer's fault
    }
    if (pattern && !pattern.test(value)) add(`must match ${schema.pattern}`);
  }
}

function checkNumber(value: number, schema: Schema, add: (message: string) => void): void {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
  if (typeof minimum === "number" && value < minimum) add(`must be >= ${minimum}`);
  if (typeof maximum === "number" && value > maximum) add(`must be <= ${maximum}`);
  if (typeof exclusiveMinimum === "number" && value <= exclusiveMinimum) add(`must be > ${exclusiveMinimum}`);
  if (typeof exclusiveMaximum === "number" && value >= exclusiveMaximum) add(`must be < ${exclusiveMaximum}`);
  if (typeof multipleOf === "number" && multipleOf > 0 && !Number.isInteger(value / multipleOf)) {
    add(`must be a multiple of ${multipleOf}`);
  }
}

function checkArray(value: unknown[], schema: Schema, root: Schema, path: string, issues: SchemaIssue[]) {
  if (typeof schema.minItems === "number" && value.length < schema.minItems)
    issues.push({ path, message: `must have at least ${schema.minItems} items` });
  if (typeof schema.maxItems === "number" && value.length > schema.maxItems)
    issues.push({ path, message: `must have at most ${schema.maxItems} items` });
  if (schema.uniqueItems === true && new Set(value.map((item) => JSON.stringify(item))).size !== value.length)
    issues.push({ path, message: "must not repeat items" });
  const items = schema.items;
  if (!isSchema(items)) return;
  for (const [index, item] of value.entries()) check(item, items, root, join(path, index), issues);
}

function checkObject(value: Schema, schema: Schema, root: Schema, path: string, issues: SchemaIssue[]) {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  for (const name of Array.isArray(schema.required) ? schema.required : []) {
    if (typeof name === "string" && !Object.hasOwn(value, name))
      issues.push({ path: join(path, name), message: "is required" });
  }
  for (const [name, member] of Object.entries(value)) {
    const declared = properties[name];
    if (isSchema(declared)) check(member, declared, root, join(path, name), issues);
    else if (schema.additionalProperties === false)
      issues.push({ path: join(path, name), message: "is not allowed" });
    else if (isSchema(schema.additionalProperties))
      check(member, schema.additionalProperties, root, join(path, name), issues);
  }
}

function typeMatches(value: unknown, type: unknown): boolean {
  if (type === undefined) return true;
  return [type].flat().some((one) => (one === "null" ? value === null : parameterType(one)?.fits(value)));
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function join(path: string, key: string | number): string {
  return path === "" ? String(key) : `${path}.${key}`;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
