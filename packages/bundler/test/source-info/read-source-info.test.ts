import { readFile, writeFile } from "node:fs/promises";
import type { SourceClass } from "@executa/core/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SourceInfoReader } from "../../src/source-info/source-info-reader.js";
import { DECORATOR_DECLARATIONS, sourceProject } from "./source-files.js";

const TYPES = `
export enum Color { Red = "red", Green = "green" }
export const enum Level { Low, High = 5 }
export type Units = "metric" | "imperial";
/** A place on earth. */
export interface Place {
  /** Latitude in degrees. */
  lat: number;
  lon?: number;
  name: string | null;
  tags: string[];
  near?: Place;
}
`;

/** A union whose text is longer than the recorded type text may be. */
const LONG_UNION = Array.from({ length: 10 }, (_, index) => `"option-number-${index}"`).join(" | ");

const WEATHER = `${DECORATOR_DECLARATIONS}
import { Color, Level, type Place, type Units } from "./types.js";
import type { Mood } from "mood-package";

/**
 * Query options,
 * wrapped.
 *
 * - one
 * - two
 */
export class QueryArgs {
  /** Language of the answer. */
  lang = "en";
  @IsInt() count!: number;
  /** @minimum 1 @maximum 7 */
  days?: number;
  /** @integer */
  ids: number[] = [1, 2];
  when!: Date;
  place?: Place;
  private secret = "x";
  static instances = 0;
  hidden(): void {}
}

/** Weather from Open-Meteo. */
@Plugin({ name: "weather", version: "1.0.0" })
export class Weather {
  /** Current conditions for a city.
   * @param units - metric or imperial */
  @Tool()
  async getWeather(
    /** City name, e.g. "Berlin". */ city: string,
    units: "metric" | "imperial" = "metric",
    /** 1-7 */ days?: number,
    @Ctx() ctx?: object,
    last = "",
  ) {}

  @Tool()
  paint(ratio: 0.5 | 1, color: Color, level: Level | undefined, colors: Color[], units: Units, place: Place, at: Date, args: QueryArgs) {}

  @Tool()
  defaults(ok = true, minusOne = -1, list: readonly string[] = ["a"], object = { a: [1, null] }, computed = Date.now(), named: Array<number> = []) {}

  @Tool()
  loose(anything: unknown, mixed: string | number, callback: () => void, big: bigint, pair: [string, number], map: Map<string, number>) {}

  @Tool()
  flags(on: boolean, exactly: true, maybe?: boolean) {}

  @Tool()
  fromPackage(mood: Mood, label: string) {}

  @Tool()
  written(
    shape: {
      a: string;
      b:   number;
    },
    long: ${LONG_UNION},
  ) {}

  /** Not a tool: no decorator, not recorded. */
  helper(value: string) {}
}

export class Undecorated { value = 1; }

${"@Plugin()"} export default class {}
`;

describe("readSourceInfo through SourceInfoReader", () => {
  let project: Awaited<ReturnType<typeof sourceProject>>;
  let classes: Record<string, SourceClass>;
  let notes: readonly { path: string; type: string; reason: string }[];

  beforeAll(async () => {
    project = await sourceProject({
      "types.ts": TYPES,
      "weather.ts": WEATHER,
      "node_modules/mood-package/package.json": JSON.stringify({ name: "mood-package", types: "index.d.ts" }),
      "node_modules/mood-package/index.d.ts": 'export type Mood = "happy" | "sad";\n',
    });
    const file = project.path("weather.ts");
    const result = new SourceInfoReader().transform(file, await readFile(file, "utf8"));
    classes = Object.fromEntries(result.classes.map((found) => [found.name, found.info]));
    notes = result.notes;
  }, 60_000);
  afterAll(() => project?.remove());

  const parameter = (method: string, name: string) =>
    classes.Weather?.methods?.[method]?.parameters.find((found) => found.name === name);

  it("records every named class, decorated or not (an anonymous one has no binding to record)", () => {
    expect(Object.keys(classes).sort()).toEqual(["QueryArgs", "Undecorated", "Weather"]);
    expect(classes.Undecorated).toEqual({
      fields: { value: { optional: true, default: 1, schema: { type: "number" } } },
    });
    expect(classes.Weather?.description).toBe("Weather from Open-Meteo.");
    expect(Object.keys(classes.Weather?.methods ?? {}).sort()).toEqual([
      "defaults",
      "flags",
      "fromPackage",
      "getWeather",
      "loose",
      "paint",
      "written",
    ]);
  });

  it("reads the issue's example: names, doc comments, optionality, defaults, literal unions", () => {
    const method = classes.Weather?.methods?.getWeather;
    expect(method?.description).toBe("Current conditions for a city.");
    expect(method?.parameters).toEqual([
      {
        name: "city",
        index: 0,
        optional: false,
        schema: { type: "string" },
        typeText: "string",
        description: 'City name, e.g. "Berlin".',
      },
      {
        name: "units",
        index: 1,
        optional: true,
        default: "metric",
        description: "metric or imperial",
        schema: { type: "string", enum: ["metric", "imperial"] },
        typeText: '"metric" | "imperial"',
      },
      {
        name: "days",
        index: 2,
        optional: true,
        description: "1-7",
        schema: { type: "number" },
        typeText: "number",
      },
      // ctx (index 3), a context slot, is left out; positions stay the runtime's.
      // No annotation, no typeText.
      { name: "last", index: 4, optional: true, default: "", schema: { type: "string" } },
    ]);
  });

  it("maps string and numeric (const) enums, arrays of enums, aliases, interfaces, Date and DTO classes", () => {
    expect(parameter("paint", "color")).toMatchObject({
      optional: false,
      schema: { type: "string", enum: ["red", "green"] },
    });
    // Whole-number enums are integer enums; a numeric enum's member names come with its values.
    expect(parameter("paint", "level")).toMatchObject({
      optional: true,
      schema: { type: "integer", enum: [0, 5], enumNames: ["Low", "High"] },
    });
    expect(parameter("paint", "ratio")?.schema).toEqual({ type: "number", enum: [0.5, 1] });
    expect(parameter("paint", "colors")?.schema).toEqual({
      type: "array",
      items: { type: "string", enum: ["red", "green"] },
    });
    expect(parameter("paint", "units")?.schema).toEqual({ type: "string", enum: ["metric", "imperial"] });
    expect(parameter("paint", "at")?.schema).toEqual({ type: "string", format: "date-time" });
    const place = parameter("paint", "place")?.schema;
    expect(place).toMatchObject({ type: "object", required: ["lat", "name", "tags"] });
    const properties = place && "properties" in place ? place.properties : undefined;
    // Each property's doc comment is its description; its optionality is the object's `required`.
    expect(properties?.lat).toEqual({ type: "number", description: "Latitude in degrees." });
    expect(properties?.lon).toEqual({ type: "number" });
    // A union with null is an anyOf with null.
    expect(properties?.name).toEqual({ anyOf: [{ type: "string" }, { type: "null" }] });
    expect(properties?.tags).toEqual({ type: "array", items: { type: "string" } });
    // A cycle ends in a bare object.
    expect(properties?.near).toEqual({ type: "object" });
    const args = parameter("paint", "args")?.schema;
    expect(Object.keys((args && "properties" in args && args.properties) || {}).sort()).toEqual([
      "count",
      "days",
      "ids",
      "lang",
      "place",
      "when",
    ]);
  });

  it("reads a DTO class's public fields, undecorated ones included", () => {
    expect(classes.QueryArgs?.description).toBe("Query options, wrapped.\n\n- one\n- two");
    expect(classes.QueryArgs?.fields).toEqual({
      lang: {
        optional: true,
        default: "en",
        description: "Language of the answer.",
        schema: { type: "string" },
      },
      count: { optional: false, schema: { type: "integer" }, typeText: "number" },
      days: { optional: true, schema: { type: "number", minimum: 1, maximum: 7 }, typeText: "number" },
      ids: {
        optional: true,
        default: [1, 2],
        schema: { type: "array", items: { type: "integer" } },
        typeText: "number[]",
      },
      when: { optional: false, schema: { type: "string", format: "date-time" }, typeText: "Date" },
      place: expect.objectContaining({ optional: true, schema: expect.objectContaining({ type: "object" }) }),
    });
  });

  it("records each annotation as written (alias, union, array, interface, class), none without one", () => {
    expect(parameter("paint", "units")?.typeText).toBe("Units");
    expect(parameter("getWeather", "units")?.typeText).toBe('"metric" | "imperial"');
    expect(parameter("paint", "colors")?.typeText).toBe("Color[]");
    expect(parameter("defaults", "list")?.typeText).toBe("readonly string[]");
    expect(parameter("defaults", "named")?.typeText).toBe("Array<number>");
    expect(parameter("paint", "place")?.typeText).toBe("Place");
    expect(parameter("paint", "level")?.typeText).toBe("Level | undefined");
    expect(parameter("paint", "args")?.typeText).toBe("QueryArgs");
    // Inferred from the initializer only: nothing was written.
    expect(parameter("getWeather", "last")).not.toHaveProperty("typeText");
    expect(parameter("defaults", "ok")).not.toHaveProperty("typeText");
    expect(classes.QueryArgs?.fields?.lang).not.toHaveProperty("typeText");
  });

  it("records a type text on one line, cut with an ellipsis when longer than 120 characters", () => {
    expect(parameter("written", "shape")?.typeText).toBe("{ a: string; b: number; }");
    const long = parameter("written", "long")?.typeText ?? "";
    expect(LONG_UNION.length).toBeGreaterThan(120);
    expect(long).toHaveLength(120);
    expect(long.endsWith("…")).toBe(true);
    expect(LONG_UNION.startsWith(long.slice(0, -1))).toBe(true);
  });

  it("copies a default only when it is a JSON literal", () => {
    const defaults = Object.fromEntries(
      (classes.Weather?.methods?.defaults?.parameters ?? []).map((found) => [found.name, found.default]),
    );
    expect(defaults).toEqual({
      ok: true,
      minusOne: -1,
      list: ["a"],
      object: { a: [1, null] },
      computed: undefined,
      named: [],
    });
    expect(parameter("defaults", "named")?.schema).toEqual({ type: "array", items: { type: "number" } });
    expect(parameter("defaults", "computed")).toMatchObject({ optional: true, schema: { type: "number" } });
  });

  it("maps booleans without inventing an enum, and a single literal to a one-value enum", () => {
    expect(parameter("flags", "on")?.schema).toEqual({ type: "boolean" });
    expect(parameter("flags", "exactly")?.schema).toEqual({ type: "boolean", enum: [true] });
    expect(parameter("flags", "maybe")).toMatchObject({ optional: true, schema: { type: "boolean" } });
  });

  it("keeps to what reflection says for types without a faithful form, leaves out what has none, and notes both", () => {
    const loose = classes.Weather?.methods?.loose?.parameters ?? [];
    expect(loose.map((found) => [found.name, found.index, found.schema])).toEqual([
      ["anything", 0, { type: "object" }],
      ["mixed", 1, { anyOf: [{ type: "string" }, { type: "number" }] }],
      ["pair", 4, { type: "array" }],
      // Map is a built-in of the project's library: what reflection says, and noted as lossy.
      ["map", 5, { type: "object" }],
    ]);
    expect(notes.map((note) => note.path)).toEqual(
      expect.arrayContaining([
        "Weather.loose(anything)",
        "Weather.loose(mixed)",
        "Weather.loose(callback)",
        "Weather.loose(big)",
        "Weather.loose(pair)",
        "Weather.loose(map)",
      ]),
    );
    expect(notes.find((note) => note.path === "Weather.loose(callback)")).toEqual({
      path: "Weather.loose(callback)",
      type: "() => void",
      reason: "a function",
      index: 2,
      lossy: true,
    });
  });

  it("records the types without a faithful form on their class, by member and parameter position", () => {
    const unsupported = classes.Weather?.unsupported ?? [];
    expect(unsupported).toContainEqual({
      member: "loose(callback)",
      index: 2,
      type: "() => void",
      reason: "a function",
      lossy: true,
    });
    expect(unsupported.map((entry) => [entry.member, entry.index])).toEqual(
      expect.arrayContaining([
        ["loose(anything)", 0],
        ["loose(mixed)", 1],
        ["loose(big)", 3],
        ["loose(pair)", 4],
      ]),
    );
    expect(unsupported.find((entry) => entry.member === "loose(mixed)")?.type).toBe("string | number");
    // From an installed package: reflection decides.
    expect(unsupported.map((entry) => entry.member)).not.toContain("fromPackage(mood)");
    expect(unsupported).toContainEqual({
      member: "loose(map)",
      index: 5,
      type: "Map<string, number>",
      reason: "a Map, which JSON does not carry as itself",
      lossy: true,
    });
    expect(classes.QueryArgs?.unsupported).toBeUndefined();
  });

  it("leaves types from installed packages to reflection: not loaded, the member not recorded, a note", () => {
    expect(classes.Weather?.methods?.fromPackage?.parameters).toEqual([
      { name: "label", index: 1, optional: false, schema: { type: "string" }, typeText: "string" },
    ]);
    expect(notes).toContainEqual(expect.objectContaining({ path: "Weather.fromPackage(mood)" }));
  });
});

describe("SourceInfoReader", () => {
  it("after invalidate() (a watch rebuild), sees a changed file it only reads types from", async () => {
    const project = await sourceProject({
      "kind.ts": 'export type Kind = "a" | "b";\n',
      "uses.ts": `${DECORATOR_DECLARATIONS}\nimport type { Kind } from "./kind.js";\nexport class U { @Field() kind!: Kind }\n`,
    });
    try {
      const reader = new SourceInfoReader();
      const file = project.path("uses.ts");
      const text = await readFile(file, "utf8");
      const kind = () => reader.transform(file, text).classes[0]?.info.fields?.kind?.schema;
      expect(kind()).toEqual({ type: "string", enum: ["a", "b"] });
      await writeFile(project.path("kind.ts"), 'export type Kind = "a" | "b" | "c";\n');
      reader.invalidate();
      expect(kind()).toEqual({ type: "string", enum: ["a", "b", "c"] });
    } finally {
      await project.remove();
    }
  }, 60_000);

  it("returns a file without `class` unchanged without loading TypeScript", () => {
    const reader = new SourceInfoReader({ typescript: undefined as never, projectDir: "/nonexistent" });
    const text = "export const x = 1;\n";
    expect(reader.transform("/nowhere/x.ts", text)).toEqual({ code: text, classes: [], notes: [] });
  });

  it("follows changed text and files outside the first program", async () => {
    const project = await sourceProject({
      "a.ts": `${DECORATOR_DECLARATIONS}\nexport class A { @Field() x!: string }\n`,
      "b.ts": `${DECORATOR_DECLARATIONS}\nexport class B { @Field() y!: number }\n`,
    });
    try {
      const reader = new SourceInfoReader();
      const a = await readFile(project.path("a.ts"), "utf8");
      expect(reader.transform(project.path("a.ts"), a).classes[0]?.info.fields?.x?.schema).toEqual({
        type: "string",
      });
      const changed = a.replace("x!: string", "x!: boolean");
      expect(reader.transform(project.path("a.ts"), changed).classes[0]?.info.fields?.x?.schema).toEqual({
        type: "boolean",
      });
      const b = await readFile(project.path("b.ts"), "utf8");
      expect(reader.transform(project.path("b.ts"), b).classes[0]?.info.fields?.y?.schema).toEqual({
        type: "number",
      });
    } finally {
      await project.remove();
    }
  }, 60_000);
});
