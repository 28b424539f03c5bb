import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Schema } from "@executa/core";
import type { SourceClass } from "@executa/core/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SourceInfoReader } from "../../src/source-info/source-info-reader.js";
import { DECORATOR_DECLARATIONS, sourceProject } from "./source-files.js";

/** The properties of an object schema. */
const propertiesOf = (schema: Schema | undefined) =>
  schema && "properties" in schema ? schema.properties : undefined;

const SOURCE = `${DECORATOR_DECLARATIONS}
import type { Mood } from "mood-package";

/** Today's weather. */
interface Weather {
  /** Degrees Celsius. */
  temperature: number;
  units: "metric" | "imperial";
  city: string | null;
  note?: string;
  days: { day: Date; rain: boolean }[];
}

interface Display { blocks: ({ type: "markdown"; text: string } | { type: "image"; url: string; size: number })[] }

export class Tools {
  @Tool() async weather(city: string): Promise<Weather> { return null as never; }
  @Tool() inferred() { return { count: 1, names: ["a"] }; }
  @Tool() async nothing(): Promise<void> {}
  @Tool() text(): string { return ""; }
  @Tool() maybe(): Weather | null { return null; }
  @Tool() withDisplay(): Weather & { _display: Display } { return null as never; }
  @Tool() maybeWithDisplay(): (Weather & { _display: Display }) | null { return null; }
  @Tool() loose(): Record<string, unknown> { return {}; }
  @Tool() partial(): Partial<Record<"a" | "b", string>> { return {}; }
  @Tool() anything(): Promise<any> { return null as never; }
  @Tool() deep(): { ok: boolean; callback: () => void } { return null as never; }
  @Tool() mixed(): { value: string | number } { return null as never; }
  @Tool() fromPackage(): Mood { return null as never; }
  @Tool() fails(): never { throw new Error("no"); }
  @Tool() collections(): { byTag: Map<string, number>; tags: Set<string>; names: string[] } { return null as never; }
}
`;

describe("the source reader records what each tool method resolves to", () => {
  let project: Awaited<ReturnType<typeof sourceProject>>;
  let tools: SourceClass;

  beforeAll(async () => {
    project = await sourceProject({
      "tools.ts": SOURCE,
      "node_modules/mood-package/package.json": JSON.stringify({ name: "mood-package", types: "index.d.ts" }),
      "node_modules/mood-package/index.d.ts": "export interface Mood { happy: boolean }\n",
    });
    const file = project.path("tools.ts");
    const result = new SourceInfoReader().transform(file, await readFile(file, "utf8"));
    tools = result.classes.find((found) => found.name === "Tools")?.info ?? {};
  }, 60_000);
  afterAll(() => project?.remove());

  const returns = (method: string) => tools.methods?.[method]?.returns;
  const unsupported = (method: string) =>
    tools.unsupported?.filter((entry) => entry.member.startsWith(`${method}()`)).map((entry) => entry.member);

  it("unwraps a promise and reads the interface, with doc comments, optionality and null", () => {
    expect(returns("weather")).toEqual({
      type: "object",
      properties: {
        temperature: { type: "number", description: "Degrees Celsius." },
        units: { type: "string", enum: ["metric", "imperial"] },
        city: { anyOf: [{ type: "string" }, { type: "null" }] },
        note: { type: "string" },
        days: {
          type: "array",
          items: {
            type: "object",
            properties: {
              day: { type: "string", format: "date-time" },
              rain: { type: "boolean" },
            },
            required: ["day", "rain"],
          },
        },
      },
      required: ["temperature", "units", "city", "days"],
    });
  });

  it("reads an inferred return type", () => {
    expect(returns("inferred")).toEqual({
      type: "object",
      properties: {
        count: { type: "number" },
        names: { type: "array", items: { type: "string" } },
      },
      required: ["count", "names"],
    });
  });

  it("records nothing for void or never, and the schema of a string or a nullable object", () => {
    expect(returns("nothing")).toBeUndefined();
    expect(returns("fails")).toBeUndefined();
    expect(unsupported("fails")).toEqual([]);
    expect(returns("text")).toEqual({ type: "string" });
    expect(returns("maybe")).toMatchObject({ anyOf: [{ type: "object" }, { type: "null" }] });
  });

  it("leaves the display blocks out of the result's schema, and notes nothing about them", () => {
    expect(Object.keys(propertiesOf(returns("withDisplay")) ?? {})).toEqual([
      "temperature",
      "units",
      "city",
      "note",
      "days",
    ]);
    expect(returns("withDisplay")).toMatchObject({ required: ["temperature", "units", "city", "days"] });
    expect(unsupported("withDisplay")).toEqual([]);
    // Beside null too.
    const maybe = returns("maybeWithDisplay");
    const value = maybe && "anyOf" in maybe ? maybe.anyOf[0] : undefined;
    expect(Object.keys(propertiesOf(value) ?? {})).toEqual(["temperature", "units", "city", "note", "days"]);
    expect(maybe && "anyOf" in maybe && maybe.anyOf[1]).toEqual({ type: "null" });
    expect(unsupported("maybeWithDisplay")).toEqual([]);
  });

  it("reads a loose record as an object with no known properties", () => {
    expect(returns("loose")).toEqual({ type: "object" });
  });

  it("reads a mapped type of the library (Partial, Record) as the shape it makes", () => {
    expect(returns("partial")).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "string" } },
    });
  });

  it("notes the types without a faithful schema where they lie, marking those JSON does not carry as lossy", () => {
    const notes = (method: string) =>
      tools.unsupported
        ?.filter((entry) => entry.member.startsWith(`${method}()`))
        .map(({ member, lossy }) => (lossy ? `${member} (lossy)` : member));
    expect(notes("anything")).toEqual(["anything()"]);
    expect(notes("deep")).toEqual(["deep().callback (lossy)"]);
    expect(notes("mixed")).toEqual(["mixed().value"]);
    // Still noted; the members for a result's anyOf.
    expect(propertiesOf(returns("mixed"))?.value).toEqual({
      anyOf: [{ type: "string" }, { type: "number" }],
    });
  });

  it("notes a Map or a Set in a result as lossy: the project's library is loaded, so they are the built-ins", () => {
    const collections = tools.unsupported?.filter((entry) => entry.member.startsWith("collections()"));
    expect(collections).toEqual([
      {
        member: "collections().byTag",
        type: "Map<string, number>",
        reason: "a Map, which JSON does not carry as itself",
        lossy: true,
      },
      {
        member: "collections().tags",
        type: "Set<string>",
        reason: "a Set, which JSON does not carry as itself",
        lossy: true,
      },
    ]);
  });

  it("leaves a type from an installed package to the runtime: no schema, no note", () => {
    expect(returns("fromPackage")).toBeUndefined();
    expect(unsupported("fromPackage")).toEqual([]);
  });
});

describe("the source reader reads results with the globals of the project's declared types", () => {
  let project: Awaited<ReturnType<typeof sourceProject>>;
  let tools: SourceClass;

  beforeAll(async () => {
    const typeRoots = [fileURLToPath(new URL("../../../../node_modules/@types", import.meta.url))];
    project = await sourceProject({
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "ES2022",
          module: "ESNext",
          moduleResolution: "Bundler",
          experimentalDecorators: true,
          lib: ["ES2023"],
          types: ["node"],
          typeRoots,
        },
      }),
      "tools.ts": `${DECORATOR_DECLARATIONS}
export class Tools {
  @Tool() encode(text: string) {
    return { encoded: Buffer.from(text, "utf8").toString("base64"), length: text.length };
  }
  @Tool() link(page: URL) {
    return { page };
  }
}
`,
    });
    const file = project.path("tools.ts");
    const result = new SourceInfoReader().transform(file, await readFile(file, "utf8"));
    tools = result.classes.find((found) => found.name === "Tools")?.info ?? {};
  }, 60_000);
  afterAll(() => project?.remove());

  it("knows what Node's Buffer.toString returns: a string, required", () => {
    expect(tools.methods?.encode?.returns).toEqual({
      type: "object",
      properties: { encoded: { type: "string" }, length: { type: "number" } },
      required: ["encoded", "length"],
    });
    expect(tools.unsupported).toBeUndefined();
  });

  it("reads Node's global URL as a string in format uri, a parameter as a result", () => {
    expect(tools.methods?.link?.parameters[0]).toMatchObject({
      name: "page",
      schema: { type: "string", format: "uri" },
    });
    expect(propertiesOf(tools.methods?.link?.returns)?.page).toEqual({ type: "string", format: "uri" });
  });
});
