import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ObjectTypeSchema, Schema } from "@executa/core";
import { jsonSchemaOf, manifestParameters, responseFormatSchema } from "@executa/core/internal";
import { describe, expect, it } from "vitest";

// The guide's table of what each projection shows of each schema feature is derived here
// from the projection functions themselves: each row's fixture is projected four ways and
// each cell says whether the feature is shown as a field ("yes"), said in the description
// ("description"), or lost ("no"). A cell written otherwise fails.
const root = fileURLToPath(new URL("../../../", import.meta.url));
const guide = readFileSync(join(root, "docs/guide/tools-and-schemas.md"), "utf8");

type Json = Record<string, unknown>;
type Cell = "yes" | "description" | "no";

/** One schema feature: a value that has it, and how a projected value shows it. */
interface Row {
  schema: Schema;
  /** `$defs` of the tool's input root, for a value that refers to them. */
  defs?: Record<string, Schema>;
  /** True when the projected value carries the feature in a field. */
  shown: (value: Json) => boolean;
  /** True when the projected value says it in a description (default: its description grew). */
  noted?: (value: Json) => boolean;
}

const DESCRIPTION = "Value.";
const node: Schema = {
  type: "object",
  properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
  required: ["name"],
};
const optionalNote = (value: Json) =>
  String((asJson(value.properties).b as Json | undefined)?.description ?? "").includes("optional");

const nullableOnlyB = (value: Json) => {
  const properties = asJson(value.properties);
  const admitsNull = (name: string) => JSON.stringify(asJson(properties[name]).type ?? "").includes("null");
  return !admitsNull("a") && admitsNull("b");
};

/** Keyed by the first cell of the guide's table. */
const ROWS: Record<string, Row> = {
  "whole number (`@integer`, `@IsInt()`)": {
    schema: { type: "integer" },
    shown: (value) => value.type === "integer",
  },
  "`minimum` / `maximum`": {
    schema: { type: "number", minimum: 1, maximum: 7 },
    shown: (value) => value.minimum === 1 && value.maximum === 7,
  },
  "`exclusiveMinimum` / `exclusiveMaximum`": {
    schema: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
    shown: (value) => value.exclusiveMinimum === 0 && value.exclusiveMaximum === 1,
  },
  "`minLength` / `maxLength`": {
    schema: { type: "string", minLength: 1, maxLength: 100 },
    shown: (value) => value.minLength === 1 && value.maxLength === 100,
  },
  "`pattern`": {
    schema: { type: "string", pattern: "^[A-Z]{3}$" },
    shown: (value) => value.pattern === "^[A-Z]{3}$",
  },
  "`Date` (`format: date-time`)": {
    schema: { type: "string", format: "date-time" },
    shown: (value) => value.format === "date-time",
  },
  "`URL` (`format: uri`)": {
    schema: { type: "string", format: "uri" },
    shown: (value) => value.format === "uri",
  },
  "`email` / `uuid` (a format without a codec)": {
    schema: { type: "string", format: "email" },
    shown: (value) => value.format === "email",
  },
  "`minItems` / `maxItems`": {
    schema: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 5 },
    shown: (value) => value.minItems === 1 && value.maxItems === 5,
  },
  "`uniqueItems` (`@ArrayUnique()`)": {
    schema: { type: "array", items: { type: "string" }, uniqueItems: true },
    shown: (value) => value.uniqueItems === true,
  },
  "a rule without a keyword (`@IsUrl()`, `@Matches(/x/i)`, `@ArrayUnique(selector)`)": {
    schema: { type: "string", rules: ["a URL"] },
    shown: (value) => "rules" in value,
  },
  "numeric enum's member names": {
    schema: { type: "integer", enum: [0, 1, 2], enumNames: ["Low", "Medium", "High"] },
    shown: (value) => JSON.stringify(value.enum) === JSON.stringify(["Low", "Medium", "High"]),
  },
  "`required` inside an object": {
    schema: { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, required: ["a"] },
    // Strict structured output lists every property as required and lets an optional one be null.
    shown: (value) => JSON.stringify(value.required) === JSON.stringify(["a"]) || nullableOnlyB(value),
    noted: optionalNote,
  },
  "unknown keys refused (`additionalProperties: false`)": {
    schema: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
    shown: (value) => value.additionalProperties === false,
  },
  "facts of array elements": {
    schema: { type: "array", items: { type: "integer", minimum: 1, maximum: 7 } },
    shown: (value) => asJson(value.items).minimum === 1 && asJson(value.items).maximum === 7,
  },
  "union (`anyOf`)": {
    schema: { anyOf: [{ type: "string" }, { type: "number" }] },
    shown: (value) => Array.isArray(value.anyOf) && value.anyOf.length === 2,
  },
  'nullable (`anyOf` with `{ type: "null" }`)': {
    schema: { anyOf: [{ type: "string" }, { type: "null" }] },
    shown: (value) =>
      (Array.isArray(value.type) && value.type.includes("null")) ||
      (Array.isArray(value.anyOf) && value.anyOf.some((member) => asJson(member).type === "null")),
  },
  "recursion (`$ref` into `$defs`)": {
    schema: { $ref: "#/$defs/Node" },
    defs: { Node: node },
    shown: (value) => value.$ref === "#/$defs/Node",
  },
  "`default`": {
    schema: { type: "number", default: 3 },
    shown: (value) => value.default === 3,
  },
};

function asJson(value: unknown): Json {
  return typeof value === "object" && value !== null ? (value as Json) : {};
}

/** A tool input with one required property `value` (inside `outer` when nested). */
function inputOf(row: Row, nested: boolean): ObjectTypeSchema {
  const value = { ...row.schema, description: DESCRIPTION } as Schema;
  const properties: Record<string, Schema> = nested
    ? { outer: { type: "object", properties: { value }, required: ["value"] } }
    : { value };
  return {
    type: "object",
    properties,
    required: Object.keys(properties),
    ...(row.defs !== undefined && { $defs: row.defs }),
  };
}

/** Each column of the table: the projected value of the row's property. */
const COLUMNS: Record<string, (row: Row) => Json> = {
  "manifest parameter": (row) => manifestParameters(inputOf(row, false))[0] as unknown as Json,
  "manifest nested property": (row) =>
    asJson(asJson((manifestParameters(inputOf(row, true))[0] as unknown as Json).properties).value),
  "MCP `inputSchema` / `outputSchema`": (row) =>
    asJson(asJson(jsonSchemaOf(inputOf(row, false)).properties).value),
  "`response_format` (strict)": (row) =>
    asJson(asJson(responseFormatSchema(inputOf(row, false), true).properties).value),
};

function cell(row: Row, project: (row: Row) => Json): Cell {
  const value = project(row);
  if (row.shown(value)) return "yes";
  const noted = row.noted ?? ((projected: Json) => (projected.description ?? DESCRIPTION) !== DESCRIPTION);
  return noted(value) ? "description" : "no";
}

/** The table under `### What each projection shows`: header cells and rows of cells. */
function guideTable(): { header: string[]; rows: string[][] } {
  const from = guide.indexOf("\n### What each projection shows\n");
  expect(from, "the guide has a section '### What each projection shows'").toBeGreaterThan(-1);
  const section = guide.slice(from + 1, guide.indexOf("\n#", from + 1));
  const lines = section.split("\n").filter((line) => line.startsWith("|"));
  const cells = (line: string) =>
    line
      .slice(1, -1)
      .split(" | ")
      .map((text) => text.trim());
  return { header: cells(lines[0] ?? "||"), rows: lines.slice(2).map(cells) };
}

describe("the guide's table of what each projection shows", () => {
  it("has one column per projection and one row per feature, in this test's order", () => {
    const { header, rows } = guideTable();
    expect(header).toEqual(["feature", ...Object.keys(COLUMNS)]);
    expect(rows.map((cells) => cells[0])).toEqual(Object.keys(ROWS));
  });

  it("says in each cell what the projection function does with the feature", () => {
    const derived = Object.entries(ROWS).map(([feature, row]) => [
      feature,
      ...Object.values(COLUMNS).map((project) => cell(row, project)),
    ]);
    const written = guideTable().rows.map((cells) =>
      cells.map((text, index) => (index === 0 ? text : text.split(" ")[0])),
    );
    expect(written).toEqual(derived);
  });
});
