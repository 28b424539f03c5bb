import { buildPlugin, Health, manifestOf, OnStart, Param, Plugin, Tool } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { handlerOutcome } from "../helpers/invoke.js";

const info = { name: "weather", version: "1.0.0", description: "Weather." };

/** Tools shared by several plugins, declared once on a base class without @Plugin. */
abstract class WeatherTools {
  protected units = "metric";

  @Tool({ description: "Current weather in a city." })
  current(@Param("city", { description: "City name." }) city: string): object {
    return { city, units: this.units, source: "base" };
  }

  @Tool({ description: "Forecast for a city." })
  forecast(@Param("city", { description: "City name." }) city: string, @Param("days") days: number): object {
    return { city, days };
  }

  @Health()
  health() {
    return { status: "ready" as const, message: "base" };
  }
}

describe("a plugin class inherits the tools and hooks of its base classes", () => {
  test("inherited tools are in the manifest, base first, and run on the subclass instance", () => {
    @Plugin(info)
    class Weather extends WeatherTools {
      protected override units = "imperial";

      @Tool({ description: "Weather alerts." })
      alerts() {
        return [];
      }
    }
    const manifest = manifestOf(Weather);
    expect(manifest.tools.map((tool) => tool.name)).toEqual(["current", "forecast", "alerts"]);
    expect(
      (manifest.tools[1]?.parameters ?? []).map((parameter) => [parameter.name, parameter.type]),
    ).toEqual([
      ["city", "string"],
      ["days", "number"],
    ]);
    const definition = buildPlugin(Weather);
    expect(handlerOutcome(definition, "current", { city: "Oslo" })).toEqual({
      city: "Oslo",
      units: "imperial",
      source: "base",
    });
    expect(handlerOutcome(definition, "forecast", { city: "Oslo", days: "3" })).toEqual({
      city: "Oslo",
      days: 3,
    });
  });

  test("an override without decorators keeps the base's declaration and runs the override", () => {
    @Plugin(info)
    class Cached extends WeatherTools {
      override current(city: string) {
        return { city, source: "cache" };
      }
    }
    const manifest = manifestOf(Cached);
    expect(manifest.tools.map((tool) => tool.name)).toEqual(["current", "forecast"]);
    expect(manifest.tools[0]?.description).toBe("Current weather in a city.");
    expect(handlerOutcome(buildPlugin(Cached), "current", { city: "Rome" })).toEqual({
      city: "Rome",
      source: "cache",
    });
  });

  test("re-declaring @Tool on an override replaces the base's declaration in its place", () => {
    @Plugin(info)
    class Renamed extends WeatherTools {
      @Tool({ name: "now", description: "Weather right now." })
      override current(@Param("city") city: string) {
        return { city, source: "sub" };
      }
    }
    const manifest = manifestOf(Renamed);
    expect(manifest.tools.map((tool) => [tool.name, tool.description])).toEqual([
      ["now", "Weather right now."],
      ["forecast", "Forecast for a city."],
    ]);
    expect(handlerOutcome(buildPlugin(Renamed), "now", { city: "Lima" })).toEqual({
      city: "Lima",
      source: "sub",
    });
  });

  test("the nearest hook wins: the subclass's own, else the base's", async () => {
    @Plugin(info)
    class Inherits extends WeatherTools {}
    @Plugin(info)
    class Own extends WeatherTools {
      @Health()
      check() {
        return { status: "error" as const, message: "sub" };
      }
    }
    const inherited = buildPlugin(Inherits).health;
    const own = buildPlugin(Own).health;
    expect(inherited).toBeTypeOf("function");
    expect(own).toBeTypeOf("function");
    const context = { log: { debug() {}, info() {}, warn() {}, error() {}, child: () => context.log } };
    await expect(inherited?.(context as never)).resolves.toMatchObject({ message: "base" });
    await expect(own?.(context as never)).resolves.toMatchObject({ status: "error", message: "sub" });
  });

  test("a start hook on a base class runs for the subclass", async () => {
    const started: string[] = [];
    class Base {
      @OnStart()
      start() {
        started.push(this.constructor.name);
      }
    }
    @Plugin(info)
    class Sub extends Base {
      @Tool({ description: "A." }) a() {}
    }
    await buildPlugin(Sub).onStart?.();
    expect(started).toEqual(["Sub"]);
  });

  test("a subclass with no tools of its own is a plugin when its base has some", () => {
    @Plugin(info)
    class Plain extends WeatherTools {}
    expect(manifestOf(Plain).tools).toHaveLength(2);
  });
});

describe("problems in a base class name the base class", () => {
  test("a tool without a description", () => {
    class Base {
      @Tool({ description: "" }) broken() {}
    }
    @Plugin(info)
    class Sub extends Base {}
    expect(() => manifestOf(Sub)).toThrow(expect.objectContaining({ code: "DESCRIPTION_MISSING" }));
    expect(() => manifestOf(Sub)).toThrow(/^Base\.broken: the tool has no description/);
  });

  test("a subclass tool whose name clashes with an inherited one", () => {
    class Base {
      @Tool({ description: "A." }) getItem() {}
    }
    @Plugin(info)
    class Sub extends Base {
      @Tool({ description: "B.", name: "get_item" }) fetch() {}
    }
    expect(() => manifestOf(Sub)).toThrow(expect.objectContaining({ code: "DUPLICATE_TOOL_NAME" }));
    expect(() => manifestOf(Sub)).toThrow('tool name "get_item" is already used by Sub.getItem');
  });

  test("two hooks of one kind on the same base class", () => {
    class Base {
      @Health() a() {
        return "ready";
      }
      @Health() b() {
        return "ready";
      }
    }
    @Plugin(info)
    class Sub extends Base {
      @Tool({ description: "A." }) run() {}
    }
    expect(() => manifestOf(Sub)).toThrow(expect.objectContaining({ code: "DECORATOR_REPEATED" }));
    expect(() => manifestOf(Sub)).toThrow(/^Base\.b: @Health\(\) is used on a and b/);
  });

  test("a hook in the subclass on a method the base declared a tool", () => {
    @Plugin(info)
    class Sub extends WeatherTools {
      @Health()
      override forecast() {
        return { status: "ready" as const, message: "" };
      }
    }
    expect(() => manifestOf(Sub)).toThrow(/^Sub\.forecast: @Health\(\) is on a @Tool method/);
  });
});
