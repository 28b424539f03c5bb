import { describe, expect, it } from "vitest";
import { checkCompatibility, compareSurfaces, type SurfaceChange } from "../../src/compat/index.js";

type Json = Record<string, unknown>;

function surface(parameters: Json[] = [{ name: "city", type: "string" }], extra: Json = {}): Json {
  return {
    name: "weather",
    version: "1.2.0",
    description: "Weather.",
    tools: [{ name: "get_weather", description: "Current weather.", parameters }],
    ...extra,
  };
}

/** The one change between a surface of these parameters and another. */
function only(before: Json[], after: Json[]): SurfaceChange {
  const changes = compareSurfaces(surface(before), surface(after));
  expect(changes).toHaveLength(1);
  return changes[0] as SurfaceChange;
}

const unit = { name: "unit", type: "string", enum: ["c", "f"] };

describe("compareSurfaces: breaking changes", () => {
  it("a tool removed", () => {
    const after = { ...surface(), tools: [] };
    expect(compareSurfaces(surface(), after)).toEqual([
      { kind: "breaking", path: "tools[get_weather]", summary: "tool `get_weather` removed" },
    ]);
  });

  it("a tool renamed: removed, with the rename guessed from the same shape", () => {
    const renamed = {
      ...surface(),
      tools: [{ name: "weather_now", description: "Now.", parameters: [{ name: "city", type: "string" }] }],
    };
    expect(compareSurfaces(surface(), renamed)).toEqual([
      {
        kind: "breaking",
        path: "tools[get_weather]",
        summary: "tool `get_weather` removed (renamed to `weather_now`?)",
      },
      { kind: "compatible", path: "tools[weather_now]", summary: "tool `weather_now` added" },
    ]);
  });

  it("a tool removed and another of a different shape added: no rename guessed", () => {
    const other = {
      ...surface(),
      tools: [{ name: "forecast", description: "x", parameters: [{ name: "days", type: "integer" }] }],
    };
    expect(compareSurfaces(surface(), other)[0]?.summary).toBe("tool `get_weather` removed");
  });

  it("a parameter removed", () => {
    expect(only([{ name: "city", type: "string" }, unit], [{ name: "city", type: "string" }])).toMatchObject({
      kind: "breaking",
      path: "tools[get_weather].parameters[unit]",
      summary: "parameter `unit` removed",
    });
  });

  it("a parameter renamed", () => {
    const changes = compareSurfaces(surface(), surface([{ name: "town", type: "string" }]));
    expect(changes.map((change) => [change.kind, change.summary])).toEqual([
      ["breaking", "parameter `city` removed (renamed to `town`?)"],
      ["breaking", "parameter `town` added as required"],
    ]);
  });

  it("a parameter added as required, without a default", () => {
    expect(only([], [{ name: "days", type: "integer" }])).toMatchObject({
      kind: "breaking",
      summary: "parameter `days` added as required",
    });
  });

  it("a parameter newly required", () => {
    expect(only([{ ...unit, required: false }], [unit])).toMatchObject({
      kind: "breaking",
      path: "tools[get_weather].parameters[unit].required",
      summary: "parameter `unit` newly required",
    });
  });

  it("a parameter's type changed", () => {
    expect(only([{ name: "days", type: "integer" }], [{ name: "days", type: "string" }])).toMatchObject({
      kind: "breaking",
      summary: "type changed from `integer` to `string`",
    });
  });

  it("an array's element type changed (items or the items_type shorthand)", () => {
    const change = only(
      [{ name: "days", type: "array", items_type: "integer" }],
      [{ name: "days", type: "array", items: { type: "string" } }],
    );
    expect(change).toMatchObject({
      kind: "breaking",
      path: "tools[get_weather].parameters[days].items.type",
    });
  });

  it("enum values removed", () => {
    expect(only([unit], [{ ...unit, enum: ["c"] }])).toMatchObject({
      kind: "breaking",
      summary: "enum values removed: `f`",
    });
  });

  it("an enum where there was none", () => {
    expect(only([{ name: "unit", type: "string" }], [unit])).toMatchObject({
      kind: "breaking",
      summary: "now restricted to `c`, `f`",
    });
  });

  it.each([
    ["minimum raised", { minimum: 1 }, { minimum: 2 }, "minimum raised from `1` to `2`"],
    ["maximum lowered", { maximum: 10 }, { maximum: 5 }, "maximum lowered from `10` to `5`"],
    ["minLength raised", { minLength: 1 }, { minLength: 3 }, "minLength raised from `1` to `3`"],
    ["maxLength lowered", { maxLength: 80 }, { maxLength: 40 }, "maxLength lowered from `80` to `40`"],
    ["minItems raised", { minItems: 0 }, { minItems: 1 }, "minItems raised from `0` to `1`"],
    ["maxItems lowered", { maxItems: 9 }, { maxItems: 3 }, "maxItems lowered from `9` to `3`"],
    ["a bound added", {}, { maximum: 7 }, "maximum `7` added"],
    ["a pattern added", {}, { pattern: "^[a-z]+$" }, "pattern `^[a-z]+$` added"],
    ["a pattern changed", { pattern: "^a" }, { pattern: "^b" }, "pattern changed from `^a` to `^b`"],
    ["uniqueItems added", {}, { uniqueItems: true }, "uniqueItems added: elements must be unique"],
    [
      "uniqueItems turned on",
      { uniqueItems: false },
      { uniqueItems: true },
      "uniqueItems added: elements must be unique",
    ],
  ])("bounds tightened: %s", (_, before, after, summary) => {
    const base = { name: "n", type: "number" };
    expect(only([{ ...base, ...before }], [{ ...base, ...after }])).toMatchObject({
      kind: "breaking",
      summary,
    });
  });

  it("a sub-property of an object parameter removed or newly required", () => {
    const before = {
      name: "place",
      type: "object",
      properties: { lat: { type: "number" }, lon: { type: "number" } },
    };
    const after = { ...before, properties: { lat: { type: "number" } }, required: ["lat"] };
    const changes = compareSurfaces(surface([before]), surface([after]));
    expect(changes.map((change) => [change.kind, change.summary])).toEqual([
      ["breaking", "property `lon` removed"],
      ["breaking", "property `lat` newly required"],
    ]);
  });

  it("a credential added as required, or newly required", () => {
    const before = surface(undefined, { credentials: [{ name: "API_KEY", required: false }] });
    const after = surface(undefined, {
      credentials: [{ name: "API_KEY" }, { name: "TOKEN", required: true }],
    });
    expect(compareSurfaces(before, after)).toEqual([
      { kind: "breaking", path: "credentials[API_KEY]", summary: "credential `API_KEY` newly required" },
      { kind: "breaking", path: "credentials[TOKEN]", summary: "credential `TOKEN` added as required" },
    ]);
  });

  it("an output field removed, or the output schema gone", () => {
    const withOutput = (properties: Json) => ({
      ...surface(),
      tools: [
        {
          name: "get_weather",
          description: "Current weather.",
          parameters: [],
          output_schema: { type: "object", properties },
        },
      ],
    });
    const before = withOutput({ temperature: { type: "number" }, wind: { type: "number" } });
    expect(compareSurfaces(before, withOutput({ temperature: { type: "number" } }))).toEqual([
      {
        kind: "breaking",
        path: "tools[get_weather].output_schema.properties[wind]",
        summary: "output field `wind` removed",
      },
    ]);
    const gone = {
      ...surface(),
      tools: [{ name: "get_weather", description: "Current weather.", parameters: [] }],
    };
    expect(compareSurfaces(before, gone)).toEqual([
      { kind: "breaking", path: "tools[get_weather].output_schema", summary: "output schema removed" },
    ]);
  });
});

describe("compareSurfaces: compatible changes", () => {
  it("no change at all: none reported, key and list order aside", () => {
    const shuffled = { tools: surface().tools, version: "1.2.0", name: "weather", description: "Weather." };
    expect(compareSurfaces(surface(), shuffled)).toEqual([]);
  });

  it("a tool added", () => {
    const after = surface();
    after.tools = [...(after.tools as Json[]), { name: "forecast", description: "Days ahead." }];
    expect(compareSurfaces(surface(), after)).toEqual([
      { kind: "compatible", path: "tools[forecast]", summary: "tool `forecast` added" },
    ]);
  });

  it("an optional parameter added, or a required one with a default", () => {
    expect(only([], [{ ...unit, required: false }])).toMatchObject({
      kind: "compatible",
      summary: "parameter `unit` added",
    });
    expect(only([], [{ ...unit, default: "c" }])).toMatchObject({
      kind: "compatible",
      summary: "parameter `unit` added",
    });
  });

  it("a parameter made optional", () => {
    expect(only([unit], [{ ...unit, required: false }])).toMatchObject({
      kind: "compatible",
      summary: "parameter `unit` now optional",
    });
  });

  it("enum values added, or the enum dropped", () => {
    expect(only([unit], [{ ...unit, enum: ["c", "f", "k"] }])).toMatchObject({
      kind: "compatible",
      summary: "enum values added: `k`",
    });
    expect(only([unit], [{ name: "unit", type: "string" }])).toMatchObject({
      kind: "compatible",
      summary: "no longer restricted to a list of values",
    });
  });

  it.each([
    ["minimum lowered", { minimum: 2 }, { minimum: 1 }],
    ["maximum raised", { maximum: 5 }, { maximum: 10 }],
    ["minLength lowered", { minLength: 3 }, { minLength: 1 }],
    ["maxLength raised", { maxLength: 40 }, { maxLength: 80 }],
    ["a bound removed", { maximum: 7 }, {}],
    ["a pattern removed", { pattern: "^a" }, {}],
    ["uniqueItems removed", { uniqueItems: true }, {}],
  ])("bounds widened: %s", (_, before, after) => {
    const base = { name: "n", type: "number" };
    expect(only([{ ...base, ...before }], [{ ...base, ...after }]).kind).toBe("compatible");
  });

  it("descriptions and other fields changed", () => {
    const before = surface([{ name: "city", type: "string", description: "A city." }]);
    const after = surface([{ name: "city", type: "string", description: "A city name.", default: "Paris" }]);
    (after.tools as Json[])[0] = { ...(after.tools as Json[])[0], description: "Now.", timeout: 30 };
    expect(compareSurfaces(before, after).map((change) => [change.kind, change.path])).toEqual([
      ["compatible", "tools[get_weather].description"],
      ["compatible", "tools[get_weather].parameters[city].default"],
      ["compatible", "tools[get_weather].parameters[city].description"],
      ["compatible", "tools[get_weather].timeout"],
    ]);
  });

  it("an optional credential added, a credential dropped, an output field added", () => {
    const before = surface(undefined, { credentials: [{ name: "OLD" }] });
    const after = surface(undefined, { credentials: [{ name: "NEW", required: false }] });
    expect(compareSurfaces(before, after).map((change) => [change.kind, change.summary])).toEqual([
      ["compatible", "optional credential `NEW` added"],
      ["compatible", "credential `OLD` no longer used"],
    ]);
  });
});

describe("checkCompatibility", () => {
  const removed = { ...surface(), version: "1.3.0", tools: [] };

  it("a breaking change without a major bump: not ok, the version it needs named", () => {
    const report = checkCompatibility(surface(), removed);
    expect(report.verdict).toMatchObject({ needs: "major", minimum: "2.0.0", ok: false });
    expect(report.markdown).toContain("**1 breaking change needs version 2.0.0 or later**; this is 1.3.0.");
    expect(report.markdown).toContain(
      "### Breaking changes\n\n- tool `get_weather` removed (`tools[get_weather]`)",
    );
  });

  it("the same change with a major bump is ok", () => {
    expect(checkCompatibility(surface(), { ...removed, version: "2.0.0" }).verdict.ok).toBe(true);
  });

  it("below 1.0 a minor bump is enough", () => {
    const before = { ...surface(), version: "0.3.4" };
    expect(checkCompatibility(before, { ...removed, version: "0.3.5" }).verdict).toMatchObject({
      minimum: "0.4.0",
      ok: false,
    });
    expect(checkCompatibility(before, { ...removed, version: "0.4.0" }).verdict.ok).toBe(true);
  });

  it("additions ask for a minor bump but do not fail", () => {
    const after = surface([
      { name: "city", type: "string" },
      { ...unit, required: false },
    ]);
    const report = checkCompatibility(surface(), after);
    expect(report.verdict).toMatchObject({ needs: "minor", minimum: "1.3.0", ok: true });
    expect(report.markdown).toContain("Compatible: callers of 1.2.0 keep working.");
  });

  it("a version that is not MAJOR.MINOR.PATCH is refused", () => {
    expect(() => checkCompatibility(surface(), { ...surface(), version: "next" })).toThrow(
      /"next" is not MAJOR.MINOR.PATCH/,
    );
  });
});

describe("compareSurfaces: the lossless input schemas a build records beside the parameters", () => {
  // The manifest says a nested property's bounds in text and lists no `required` inside an
  // object parameter; MCP's inputSchema, projected from the same schema value, has both.
  const payer = { name: "payer", type: "object", required: true, properties: { email: { type: "string" } } };
  function withInput(email: Json, required: string[]): Json {
    const tool = {
      name: "get_weather",
      description: "Current weather.",
      parameters: [payer],
      input_schema: {
        type: "object",
        properties: { payer: { type: "object", properties: { email }, required } },
        required: ["payer"],
      },
    };
    return { name: "weather", version: "1.2.0", description: "Weather.", tools: [tool] };
  }

  it("a nested property newly required, or its maximum length lowered: breaking", () => {
    expect(
      compareSurfaces(withInput({ type: "string" }, []), withInput({ type: "string" }, ["email"])),
    ).toEqual([
      {
        kind: "breaking",
        path: "tools[get_weather].parameters[payer].required",
        summary: "property `email` newly required",
      },
    ]);
    const shorter = compareSurfaces(
      withInput({ type: "string", maxLength: 100 }, []),
      withInput({ type: "string", maxLength: 50 }, []),
    );
    expect(shorter).toMatchObject([
      { kind: "breaking", path: "tools[get_weather].parameters[payer].properties[email].maxLength" },
    ]);
  });

  it("uniqueItems added to an array inside a parameter: breaking; removed: compatible", () => {
    const tags = (unique: boolean): Json => ({
      type: "array",
      items: { type: "string" },
      ...(unique && { uniqueItems: true }),
    });
    const path = "tools[get_weather].parameters[payer].properties[email].uniqueItems";
    expect(compareSurfaces(withInput(tags(false), []), withInput(tags(true), []))).toEqual([
      { kind: "breaking", path, summary: "uniqueItems added: elements must be unique" },
    ]);
    expect(compareSurfaces(withInput(tags(true), []), withInput(tags(false), []))).toEqual([
      { kind: "compatible", path, summary: "uniqueItems removed: elements may repeat" },
    ]);
  });

  it("read from the parameters when one surface has no input schemas", () => {
    const { input_schema: _, ...older } = (withInput({ type: "string" }, []).tools as Json[])[0] as Json;
    const before = { ...withInput({ type: "string" }, []), tools: [older] };
    expect(compareSurfaces(before, withInput({ type: "string" }, ["email"]))).toEqual([]);
  });
});

describe("compareSurfaces: unions (anyOf) in arguments and results", () => {
  // An argument's accepted set narrows when a member goes; a result's possible values widen
  // when one comes: each is breaking on its side, and its opposite is compatible.
  function withUnion(input: Json, output: Json): Json {
    const tool = {
      name: "get_weather",
      description: "Current weather.",
      parameters: [{ name: "id", type: "string", required: true }],
      input_schema: { type: "object", properties: { id: input }, required: ["id"] },
      output_schema: output,
    };
    return { name: "weather", version: "1.2.0", description: "Weather.", tools: [tool] };
  }
  const text = { type: "string" };
  const number = { type: "number" };
  const report = {
    type: "object",
    properties: { temperature: { type: "number" }, wind: { type: "number" } },
  };

  it("a member removed from an argument's anyOf: breaking; one added: compatible", () => {
    const both = withUnion({ anyOf: [text, number] }, text);
    const one = withUnion({ anyOf: [text] }, text);
    expect(compareSurfaces(both, one)).toEqual([
      {
        kind: "breaking",
        path: "tools[get_weather].parameters[id].anyOf",
        summary: 'union member `{"type":"number"}` removed',
      },
    ]);
    expect(compareSurfaces(one, both)).toEqual([
      {
        kind: "compatible",
        path: "tools[get_weather].parameters[id].anyOf",
        summary: 'union member `{"type":"number"}` added',
      },
    ]);
  });

  it("a member added to a result's anyOf: breaking; one removed: compatible", () => {
    const one = withUnion(text, { anyOf: [report] });
    const both = withUnion(text, { anyOf: [report, text] });
    expect(compareSurfaces(one, both)).toEqual([
      {
        kind: "breaking",
        path: "tools[get_weather].output_schema.anyOf",
        summary: 'union member `{"type":"string"}` added',
      },
    ]);
    expect(compareSurfaces(both, one)).toEqual([
      {
        kind: "compatible",
        path: "tools[get_weather].output_schema.anyOf",
        summary: 'union member `{"type":"string"}` removed',
      },
    ]);
  });

  it("a plain schema becoming a union is read as members added, not as a type change", () => {
    expect(compareSurfaces(withUnion(text, text), withUnion({ anyOf: [text, number] }, text))).toMatchObject([
      { kind: "compatible", path: "tools[get_weather].parameters[id].anyOf" },
    ]);
    expect(compareSurfaces(withUnion(text, text), withUnion(text, { anyOf: [text, number] }))).toMatchObject([
      { kind: "breaking", path: "tools[get_weather].output_schema.anyOf" },
    ]);
  });

  it("a member changed inside is compared as that member, found by its type", () => {
    const narrower = { type: "object", properties: { temperature: { type: "number" } } };
    expect(
      compareSurfaces(
        withUnion(text, { anyOf: [report, text] }),
        withUnion(text, { anyOf: [text, narrower] }),
      ),
    ).toEqual([
      {
        kind: "breaking",
        path: "tools[get_weather].output_schema.anyOf[object].properties[wind]",
        summary: "output field `wind` removed",
      },
    ]);
  });

  it("members in another order, keys in another order: no change", () => {
    const shuffled = {
      properties: { wind: { type: "number" }, temperature: { type: "number" } },
      type: "object",
    };
    expect(
      compareSurfaces(
        withUnion({ anyOf: [text, number] }, { anyOf: [report, text] }),
        withUnion({ anyOf: [number, text] }, { anyOf: [text, shuffled] }),
      ),
    ).toEqual([]);
  });
});
