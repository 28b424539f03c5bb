import { recordSourceInfo, type SourceClass } from "@executa/core/internal";
import { buildPlugin, Ctx, type InvokeContext, manifestOf, Param, Plugin, Tool } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { callTool, invalidParams } from "../helpers/invoke.js";
import { startupError } from "../helpers/startup-error.js";

// What the bundler's source reader records for these classes; written here by hand, as the
// statement it emits after each class would.

const base = { name: "demo", version: "1.0.0", description: "Demo." };

describe("the zero-annotation style: names, descriptions, optionality, enums and bounds from the source", () => {
  @Plugin({ name: "weather", version: "1.0.0" })
  class Weather {
    @Tool()
    async getWeather(
      city: string,
      units: "metric" | "imperial" = "metric",
      days?: number,
      @Ctx() ctx?: InvokeContext,
    ) {
      return { city, units, days: days ?? null, tool: ctx?.tool };
    }
  }
  const WEATHER: SourceClass = {
    description: "Weather from Open-Meteo.",
    methods: {
      getWeather: {
        description: "Current conditions for a city.",
        parameters: [
          {
            name: "city",
            index: 0,
            optional: false,
            schema: { type: "string" },
            description: 'City name, e.g. "Berlin".',
          },
          {
            name: "units",
            index: 1,
            optional: true,
            default: "metric",
            schema: { type: "string", enum: ["metric", "imperial"] },
          },
          {
            name: "days",
            index: 2,
            optional: true,
            description: "1-7",
            schema: { type: "integer", minimum: 1, maximum: 7 },
          },
        ],
      },
    },
  };

  test("without source facts, the missing descriptions are startup errors that name the source reader", () => {
    const error = startupError(Weather);
    expect(error.code).toBe("DESCRIPTION_MISSING");
    expect(error.fix).toMatch(/doc comment and build and run with the executa source reader/);
  });

  test("the manifest takes everything from the source", () => {
    recordSourceInfo(Weather, WEATHER);
    const manifest = manifestOf(Weather);
    expect(manifest.description).toBe("Weather from Open-Meteo.");
    expect(manifest.tools[0]).toEqual({
      name: "get_weather",
      description: "Current conditions for a city.",
      parameters: [
        { name: "city", type: "string", description: 'City name, e.g. "Berlin".', required: true },
        { name: "units", type: "string", required: false, default: "metric", enum: ["metric", "imperial"] },
        { name: "days", type: "integer", description: "1-7", required: false, minimum: 1, maximum: 7 },
      ],
    });
  });

  test("invokes accept what the manifest allows and reject the rest with -32602 naming the argument", async () => {
    recordSourceInfo(Weather, WEATHER);
    const weather = buildPlugin(Weather);
    expect(await callTool(weather, "get_weather", { city: "Berlin" })).toEqual({
      city: "Berlin",
      units: "metric",
      days: null,
      tool: "get_weather",
    });
    expect(
      await callTool(weather, "get_weather", { city: "Oslo", units: "imperial", days: "7" }),
    ).toMatchObject({
      units: "imperial",
      days: 7,
    });
    const badUnits = await invalidParams(weather, "get_weather", { city: "Oslo", units: "kelvin" });
    expect(badUnits.message).toContain('units: must be one of "metric", "imperial", got the string "kelvin"');
    const badDays = await invalidParams(weather, "get_weather", { city: "Oslo", days: 9 });
    expect(badDays.message).toContain("days: must be at least 1 and at most 7, got 9");
    await invalidParams(weather, "get_weather", { city: "Oslo", days: 2.5 });
  });
});

describe("enums from TypeScript enums and literal unions", () => {
  enum Color {
    Red = "red",
    Green = "green",
  }
  enum Level {
    Low = 1,
    High = 2,
  }
  @Plugin(base)
  class Paint {
    @Tool({ description: "Paint." })
    paint(
      @Param("color") color: Color,
      @Param("palette") palette: Color[],
      @Param("mood") mood: "happy" | "sad",
      @Param("level") level: Level,
    ) {
      return { color, palette, mood, level };
    }
  }
  recordSourceInfo(Paint, {
    methods: {
      paint: {
        parameters: [
          { name: "color", index: 0, optional: false, schema: { type: "string", enum: ["red", "green"] } },
          {
            name: "palette",
            index: 1,
            optional: false,
            schema: { type: "array", items: { type: "string", enum: ["red", "green"] } },
          },
          { name: "mood", index: 2, optional: false, schema: { type: "string", enum: ["happy", "sad"] } },
          { name: "level", index: 3, optional: false, schema: { type: "integer", enum: [1, 2] } },
        ],
      },
    },
  });

  test("the manifest lists the values", () => {
    expect(manifestOf(Paint).tools[0]?.parameters).toEqual([
      { name: "color", type: "string", required: true, enum: ["red", "green"] },
      { name: "palette", type: "array", items: { type: "string", enum: ["red", "green"] }, required: true },
      { name: "mood", type: "string", required: true, enum: ["happy", "sad"] },
      { name: "level", type: "integer", required: true, enum: [1, 2] },
    ]);
  });

  test("purple is rejected wherever it is sent", async () => {
    const paint = buildPlugin(Paint);
    const valid = { color: "red", palette: ["green"], mood: "happy", level: 2 };
    expect(await callTool(paint, "paint", valid)).toEqual(valid);
    expect((await invalidParams(paint, "paint", { ...valid, color: "purple" })).message).toContain(
      'color: must be one of "red", "green", got the string "purple"',
    );
    expect((await invalidParams(paint, "paint", { ...valid, palette: ["red", "purple"] })).message).toContain(
      "palette.1: must be one of",
    );
    expect((await invalidParams(paint, "paint", { ...valid, mood: "angry" })).message).toContain("mood:");
    expect((await invalidParams(paint, "paint", { ...valid, level: 3 })).message).toContain(
      "level: must be one of 1, 2, got the number 3",
    );
  });
});

describe("optional parameters", () => {
  @Plugin(base)
  class Greeter {
    @Tool({ description: "Greet." })
    greet(@Param("name") name?: string) {
      return `Hello, ${name ?? "stranger"}`;
    }
  }

  test("name?: string is not required, and an invoke without it works", async () => {
    recordSourceInfo(Greeter, {
      methods: {
        greet: { parameters: [{ name: "name", index: 0, optional: true, schema: { type: "string" } }] },
      },
    });
    expect(manifestOf(Greeter).tools[0]?.parameters).toEqual([
      { name: "name", type: "string", required: false },
    ]);
    expect(await callTool(buildPlugin(Greeter), "greet", {})).toBe("Hello, stranger");
  });
});

describe("types reflection cannot see", () => {
  type Point = { x: number; y: number };
  type Units = "metric" | "imperial";

  function mapClass() {
    @Plugin(base)
    class Map2d {
      @Tool({ description: "Move." })
      move(@Param("to") to: Point, @Param("units") units: Units) {
        return { to, units };
      }
    }
    return Map2d;
  }

  test("without source facts, an object type alias fails at startup (reflection says Object)", () => {
    expect(startupError(mapClass()).code).toBe("UNINFERABLE_TYPE");
  });

  test("with them, it is an object with known properties, checked at invoke time", async () => {
    const Map2d = mapClass();
    recordSourceInfo(Map2d, {
      methods: {
        move: {
          parameters: [
            {
              name: "to",
              index: 0,
              optional: false,
              schema: {
                type: "object",
                properties: {
                  x: { type: "number", description: "East" },
                  y: { type: "number", minimum: 0 },
                },
                required: ["x", "y"],
              },
            },
            {
              name: "units",
              index: 1,
              optional: false,
              schema: { type: "string", enum: ["metric", "imperial"] },
            },
          ],
        },
      },
    });
    expect(manifestOf(Map2d).tools[0]?.parameters?.[0]).toEqual({
      name: "to",
      type: "object",
      required: true,
      properties: {
        x: { type: "number", description: "East" },
        y: { type: "number", description: "at least 0" },
      },
    });
    const map = buildPlugin(Map2d);
    expect(await callTool(map, "move", { to: { x: 1, y: "2" }, units: "metric" })).toEqual({
      to: { x: 1, y: 2 },
      units: "metric",
    });
    expect((await invalidParams(map, "move", { to: { x: 1, y: -1 }, units: "metric" })).message).toContain(
      "to.y: must be at least 0, got -1",
    );
    expect(
      (await invalidParams(map, "move", { to: { x: 1, y: 1, z: 0 }, units: "metric" })).message,
    ).toContain("to.z: unknown argument");
  });
});

describe("arrays", () => {
  @Plugin(base)
  class Stats {
    @Tool({ description: "Sum." })
    sum(@Param("values") values: number[]) {
      return values.reduce((total, value) => total + value, 0);
    }
  }
  recordSourceInfo(Stats, {
    methods: {
      sum: {
        parameters: [
          {
            name: "values",
            index: 0,
            optional: false,
            schema: { type: "array", items: { type: "integer" } },
          },
        ],
      },
    },
  });

  test("items from the element type; an element of the wrong type is -32602 naming it", async () => {
    expect(manifestOf(Stats).tools[0]?.parameters?.[0]?.items).toEqual({ type: "integer" });
    const stats = buildPlugin(Stats);
    expect(await callTool(stats, "sum", { values: [1, "2"] })).toBe(3);
    expect((await invalidParams(stats, "sum", { values: [1, "x"] })).message).toContain(
      'values.1: expected an integer, got the string "x"',
    );
  });
});

describe("explicit options win over the source", () => {
  @Plugin(base)
  class Explicit {
    /** ignored: the options say it */
    @Tool({ description: "From the options." })
    run(@Param("count", { description: "Explicit.", minimum: 0, default: 2 }) n: number) {
      return n;
    }
  }
  recordSourceInfo(Explicit, {
    description: "From the class comment (the options win).",
    methods: {
      run: {
        description: "From the doc comment.",
        parameters: [
          {
            name: "n",
            index: 0,
            optional: false,
            description: "From the source.",
            schema: { type: "integer", minimum: 1, maximum: 5 },
          },
        ],
      },
    },
  });

  test("name, description, bounds and default from the decorator; what it leaves out from the source", () => {
    const manifest = manifestOf(Explicit);
    expect(manifest.description).toBe("Demo.");
    expect(manifest.tools[0]?.description).toBe("From the options.");
    expect(manifest.tools[0]?.parameters).toEqual([
      {
        name: "count",
        type: "integer",
        description: "Explicit.",
        required: false,
        default: 2,
        minimum: 0,
        maximum: 5,
      },
    ]);
  });
});

describe("bounds given as options", () => {
  test("on a string, or crossed, are startup errors", () => {
    @Plugin(base)
    class Texty {
      @Tool({ description: "A." }) run(@Param("s", { minimum: 1 }) s: string) {
        return s;
      }
    }
    expect(startupError(Texty).problem).toBe("minimum is given but the type is string");
    @Plugin(base)
    class Crossed {
      @Tool({ description: "A." }) run(@Param("n", { minimum: 5, maximum: 1 }) n: number) {
        return n;
      }
    }
    expect(startupError(Crossed).problem).toBe("minimum 5 is above maximum 1");
  });

  test("a default outside the bounds is a startup error", () => {
    @Plugin(base)
    class Outside {
      @Tool({ description: "A." }) run(@Param("n", { maximum: 3, default: 5 }) n: number) {
        return n;
      }
    }
    const error = startupError(Outside);
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.problem).toBe("the default 5 does not fit: must be at most 3, got 5");
  });
});

describe("names", () => {
  test("@Param() without a name and without source facts says how to get the name", () => {
    @Plugin(base)
    class Nameless {
      @Tool({ description: "A." }) run(@Param() city: string) {
        return city;
      }
    }
    const error = startupError(Nameless);
    expect(error.code).toBe("ARGUMENT_NAME_MISSING");
    expect(error.fix).toMatch(
      /executa source reader \(executa build, executa dev, the executa vitest plugin/,
    );
  });

  test("@Param({ options }) takes the name from the source", () => {
    @Plugin(base)
    class Named {
      @Tool({ description: "A." }) run(@Param({ description: "Where." }) city: string) {
        return city;
      }
    }
    recordSourceInfo(Named, {
      methods: {
        run: { parameters: [{ name: "city", index: 0, optional: false, schema: { type: "string" } }] },
      },
    });
    expect(manifestOf(Named).tools[0]?.parameters).toEqual([
      { name: "city", type: "string", description: "Where.", required: true },
    ]);
  });

  test("source facts alone type the parameters when reflection metadata is missing", () => {
    @Plugin(base)
    class Bare {
      @Tool({ description: "A." }) run(city: string) {
        return city;
      }
    }
    Reflect.deleteMetadata("design:paramtypes", Bare.prototype, "run");
    expect(startupError(Bare).code).toBe("METADATA_MISSING");
    recordSourceInfo(Bare, {
      methods: {
        run: { parameters: [{ name: "city", index: 0, optional: false, schema: { type: "string" } }] },
      },
    });
    expect(manifestOf(Bare).tools[0]?.parameters).toEqual([{ name: "city", type: "string", required: true }]);
  });
});

describe("dates", () => {
  @Plugin(base)
  class Calendar {
    @Tool({ description: "Plan." })
    plan(@Param("when", { description: "When to meet" }) when: Date) {
      return { isDate: when instanceof Date, iso: when.toISOString() };
    }
  }

  test("a Date parameter is a date-time string in the manifest and a Date for the method", async () => {
    expect(manifestOf(Calendar).tools[0]?.parameters).toEqual([
      {
        name: "when",
        type: "string",
        description: "When to meet (ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z)",
        required: true,
      },
    ]);
    const calendar = buildPlugin(Calendar);
    expect(await callTool(calendar, "plan", { when: "2026-03-01T10:30:00Z" })).toEqual({
      isDate: true,
      iso: "2026-03-01T10:30:00.000Z",
    });
    expect((await invalidParams(calendar, "plan", { when: "tomorrow" })).message).toContain(
      'when: expected an ISO 8601 date-time such as 2026-01-31T09:00:00Z, got the string "tomorrow"',
    );
    await invalidParams(calendar, "plan", { when: "2026-02-31T10:00:00Z" });
  });
});
