import type { Schema } from "@executa/core";
import { describe, expect, test } from "vitest";
import { coerceValue, objectCheckerOf } from "../../src/binding/coerce.js";

const lenient = { coerce: true };
const strict = { coerce: false };

const integer: Schema = { type: "integer" };
const number: Schema = { type: "number" };
const boolean: Schema = { type: "boolean" };
const string: Schema = { type: "string" };
const object: Schema = { type: "object" };
const strings: Schema = { type: "array", items: { type: "string" } };
const integers: Schema = { type: "array", items: { type: "integer" } };
const matrix: Schema = { type: "array", items: { type: "array", items: { type: "integer" } } };
const unit: Schema = { type: "string", enum: ["c", "f"] };
const colors: Schema = { type: "array", items: { type: "string", enum: ["red", "green"] } };

describe("coercion table: accepted values", () => {
  test.each([
    ["integer as is", integer, 5, 5],
    ['"5" → 5 for integer', integer, "5", 5],
    ['" 7 " → 7 for integer (trimmed)', integer, " 7 ", 7],
    ['"-3" → -3 for integer', integer, "-3", -3],
    ["5.0 is an integer", integer, 5.0, 5],
    ["number as is", number, 5.5, 5.5],
    ['"5" → 5 for number', number, "5", 5],
    ['"5.5" → 5.5 for number', number, "5.5", 5.5],
    ['"1e3" → 1000 for number', number, "1e3", 1000],
    ['".5" → 0.5 for number', number, ".5", 0.5],
    ["boolean as is", boolean, false, false],
    ['"true" → true', boolean, "true", true],
    ['"false" → false', boolean, "false", false],
    ['"True" → true (any letter case)', boolean, "True", true],
    ['" FALSE " → false (trimmed)', boolean, " FALSE ", false],
    ['"" → [] for an array (blank text is the empty list)', strings, "", []],
    ["string as is", string, "5", "5"],
    ["object as is", object, { a: 1 }, { a: 1 }],
    ["JSON-encoded object string → object", object, '{"a":1,"b":[2]}', { a: 1, b: [2] }],
    ["array as is", strings, ["a", "b"], ["a", "b"]],
    ["JSON-encoded array string → array", strings, '["a","b"]', ["a", "b"]],
    ["single string → wrapped", strings, "a", ["a"]],
    ["elements coerced: integers from strings", integers, ["1", 2], [1, 2]],
    ["JSON-encoded integer array", integers, "[1, 2]", [1, 2]],
    ['single "5" for an integer array → [5]', integers, "5", [5]],
    ["single 5 for an integer array → [5]", integers, 5, [5]],
    ["nested arrays", matrix, [[1], ["2", 3]], [[1], [2, 3]]],
    ["enum member", unit, "f", "f"],
    ["enum members in elements", colors, ["red", "green"], ["red", "green"]],
    ["single enum member wrapped", colors, "red", ["red"]],
  ])("%s", (_name, schema, input, expected) => {
    expect(coerceValue(input, schema, "x", lenient)).toEqual({ ok: true, value: expected });
  });

  test("a JSON-encoded object loses __proto__, constructor and prototype keys", () => {
    const result = coerceValue(
      '{"__proto__":{"polluted":1},"constructor":2,"a":{"prototype":3,"b":1}}',
      object,
      "x",
      lenient,
    );
    expect(result).toEqual({ ok: true, value: { a: { b: 1 } } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("coercion table: rejected values", () => {
  test.each([
    ['"5.5" for integer', integer, "5.5", 'expected an integer, got the string "5.5"'],
    ["5.5 for integer", integer, 5.5, "expected an integer, got the number 5.5"],
    ['"" for integer', integer, "", 'expected an integer, got the string ""'],
    ['"1e3" for integer', integer, "1e3", "expected an integer"],
    ["an unsafe integer string", integer, "9007199254740993", "expected an integer"],
    ["true for integer", integer, true, "expected an integer, got the boolean true"],
    ['"abc" for number', number, "abc", 'expected a number, got the string "abc"'],
    ['"" for number', number, "", "expected a number"],
    ['"Infinity" for number', number, "Infinity", "expected a number"],
    ['"0x10" for number', number, "0x10", "expected a number"],
    ["NaN for number", number, Number.NaN, "expected a number"],
    ['"yes" for boolean', boolean, "yes", 'expected a boolean, got the string "yes"'],
    ['"1" for boolean', boolean, "1", 'expected a boolean, got the string "1"'],
    [
      '"[1" for a string array (text starting with [ must be a JSON list)',
      strings,
      "[1",
      "expected an array of string",
    ],
    ["1 for boolean", boolean, 1, "expected a boolean, got the number 1"],
    ["5 for string", string, 5, "expected a string, got the number 5"],
    ["an object for string", string, {}, "expected a string, got an object"],
    ["an array for object", object, [], "expected an object, got an array"],
    ["a JSON array string for object", object, "[1]", "expected an object"],
    ["malformed JSON for object", object, '{"a":', "expected an object"],
    ["a plain string for object", object, "hello", "expected an object"],
    ["a non-integer single value for an integer array", integers, "x", "expected an array of integer"],
    ["an enum miss", unit, "k", 'must be one of "c", "f", got the string "k"'],
  ])("%s", (_name, schema, input, message) => {
    const result = coerceValue(input, schema, "x", lenient);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.issues[0]?.path).toBe("x");
      expect(result.issues[0]?.message).toContain(message);
    }
  });

  test("element issues carry the element's path, all of them", () => {
    const result = coerceValue([1, "x", 2.5], integers, "ids", lenient);
    expect(result).toEqual({
      ok: false,
      issues: [
        { path: "ids.1", message: 'expected an integer, got the string "x"', expected: "integer" },
        { path: "ids.2", message: "expected an integer, got the number 2.5", expected: "integer" },
      ],
    });
  });

  test("an enum miss in an element names the element", () => {
    const result = coerceValue(["red", "blue"], colors, "colors", lenient);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.path)).toEqual(["colors.1"]);
  });
});

describe("uniqueItems: elements compared as JSON values, after coercion", () => {
  const tags: Schema = { type: "array", items: { type: "string" }, uniqueItems: true };
  const ids: Schema = { type: "array", items: { type: "integer" }, uniqueItems: true };
  const points: Schema = { type: "array", items: { type: "object" }, uniqueItems: true };
  const days: Schema = {
    type: "array",
    items: { type: "string", format: "date-time" },
    uniqueItems: true,
  };

  test("distinct elements pass", () => {
    expect(coerceValue(["a", "b"], tags, "tags", lenient)).toEqual({ ok: true, value: ["a", "b"] });
    expect(coerceValue([{ x: 1 }, { x: 2 }], points, "points", strict)).toMatchObject({ ok: true });
  });

  test("a repeat is refused at the list, naming the element and the one it repeats", () => {
    expect(coerceValue(["a", "b", "a"], tags, "tags", strict)).toEqual({
      ok: false,
      issues: [
        {
          path: "tags",
          message: "must have unique elements: element 2 repeats element 0",
          expected: "array of string",
        },
      ],
    });
  });

  test("elements are compared once coerced, objects by content, decoded values as sent", () => {
    const coerced = coerceValue([1, "1"], ids, "ids", lenient);
    expect(!coerced.ok && coerced.issues[0]?.message).toBe(
      "must have unique elements: element 1 repeats element 0",
    );
    const objects = coerceValue(
      [
        { x: 1, y: 2 },
        { y: 2, x: 1 },
      ],
      points,
      "points",
      strict,
    );
    expect(!objects.ok && objects.issues[0]?.path).toBe("points");
    const dates = coerceValue(["2026-01-31T09:00:00Z", "2026-01-31T09:00:00Z"], days, "days", lenient);
    expect(!dates.ok && dates.issues[0]?.message).toContain("element 1 repeats element 0");
  });

  test("an element's own issue is reported, not a repeat", () => {
    const result = coerceValue(["x", "x"], ids, "ids", lenient);
    expect(!result.ok && result.issues.map((issue) => issue.path)).toEqual(["ids.0", "ids.1"]);
  });
});

describe("strict checking (declared defaults)", () => {
  test.each([
    ['"5" for integer', integer, "5"],
    ['"true" for boolean', boolean, "true"],
    ["a single value for an array", strings, "a"],
    ["a JSON string for an array", strings, '["a"]'],
    ["a JSON string for an object", object, "{}"],
  ])("%s is rejected", (_name, schema, input) => {
    expect(coerceValue(input, schema, "x", strict).ok).toBe(false);
  });

  test("values of the right type pass", () => {
    expect(coerceValue([1, 2], integers, "x", strict)).toEqual({ ok: true, value: [1, 2] });
  });
});

describe("compiled from the schema value: a recursive class by $ref", () => {
  const node: Schema = {
    type: "object",
    properties: {
      name: { type: "string" },
      children: { type: "array", items: { $ref: "#/$defs/Node" } },
    },
    required: ["name"],
    additionalProperties: false,
  };
  const root = {
    type: "object",
    properties: { tree: { $ref: "#/$defs/Node" } },
    required: ["tree"],
    additionalProperties: false,
    $defs: { Node: node },
  } as const;
  const nested = (depth: number, leaf: Record<string, unknown>): Record<string, unknown> =>
    depth === 0 ? leaf : { name: `level ${depth}`, children: [nested(depth - 1, leaf)] };

  test("every depth is checked: an unknown key and a missing name five levels down", () => {
    const result = objectCheckerOf(root)({ tree: nested(5, { nam: "typo" }) }, lenient);
    const path = "tree.children.0.children.0.children.0.children.0.children.0";
    expect(result).toEqual({
      ok: false,
      issues: [
        {
          path: `${path}.nam`,
          message: "unknown argument; expected: name, children",
          expected: "name, children",
          kind: "unknown_property",
        },
        { path: `${path}.name`, message: "is required", expected: "string" },
      ],
    });
  });

  test("values are coerced at every depth, too", () => {
    const deep = { tree: nested(4, { name: "leaf", children: '[{"name":"below"}]' }) };
    const result = objectCheckerOf(root)(deep, lenient);
    expect(result.ok).toBe(true);
    const leaf = JSON.stringify(result.ok && result.value);
    expect(leaf).toContain('"children":[{"name":"below"}]');
  });
});

describe("formats", () => {
  test("a format no codec is registered for (email, uuid) is an annotation: the string as it is", () => {
    const email: Schema = { type: "string", format: "email", default: "a@example.com" };
    expect(coerceValue("x@example.com", email, "payer.email", strict)).toEqual({
      ok: true,
      value: "x@example.com",
    });
    const checker = objectCheckerOf({
      type: "object",
      properties: { email, id: { type: "string", format: "uuid" } },
      required: ["id"],
    });
    expect(checker({ id: "not checked here" }, lenient)).toEqual({
      ok: true,
      value: { email: "a@example.com", id: "not checked here" },
    });
  });

  test("a format naming a codec is decoded", () => {
    const checked = coerceValue(
      "2026-01-31T09:00:00Z",
      { type: "string", format: "date-time" },
      "at",
      strict,
    );
    expect(checked.ok && checked.value instanceof Date).toBe(true);
  });
});
