import { recordSourceInfo } from "@executa/core/internal";
import { Args, buildPlugin, manifestOf, Plugin, Tool } from "@executa/decorators";
import { Type } from "class-transformer";
import { IsDate, IsInt, IsNumber, IsString, Max, Min, ValidateNested } from "class-validator";
import { describe, expect, test } from "vitest";
import { callTool, invalidParams } from "../helpers/invoke.js";
import { startupError } from "../helpers/startup-error.js";

const base = { name: "demo", version: "1.0.0", description: "Demo." };

describe("a Date DTO field", () => {
  class Meeting {
    @IsString() title!: string;
    @IsDate() @Type(() => Date) when!: Date;
  }
  @Plugin(base)
  class Calendar {
    @Tool({ description: "Plan." })
    plan(@Args() meeting: Meeting) {
      return { isDate: meeting.when instanceof Date, iso: meeting.when.toISOString() };
    }
  }

  test("is a date-time string in the manifest, and an ISO string becomes a Date", async () => {
    expect(manifestOf(Calendar).tools[0]?.parameters?.[1]).toEqual({
      name: "when",
      type: "string",
      description: "ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z",
      required: true,
    });
    const calendar = buildPlugin(Calendar);
    expect(await callTool(calendar, "plan", { title: "Sync", when: "2026-03-01T10:30:00+01:00" })).toEqual({
      isDate: true,
      iso: "2026-03-01T09:30:00.000Z",
    });
    expect((await invalidParams(calendar, "plan", { title: "Sync", when: {} })).message).toContain("when:");
    expect((await invalidParams(calendar, "plan", { title: "Sync", when: "soon" })).message).toContain(
      "when: expected an ISO 8601 date-time",
    );
  });
});

describe("an undecorated DTO field with an initializer", () => {
  function searchPlugin() {
    class Query {
      @IsString() text!: string;
      lang = "en";
    }
    @Plugin(base)
    class Search {
      @Tool({ description: "Search." })
      search(@Args() query: Query) {
        return { text: query.text, lang: query.lang };
      }
    }
    return { Query, Search };
  }

  test("without source facts: a startup error naming the field, not a tool that fails every invoke", () => {
    const error = startupError(searchPlugin().Search);
    expect(error.code).toBe("UNDECORATED_FIELD");
    expect(error.message).toMatch(
      /^Query\.lang \(@Args\(\) of Search\.search\): the property has no decorator/,
    );
    expect(error.fix).toMatch(/executa source reader/);
  });

  test("with them: in the manifest with its default, and accepted by the whitelist", async () => {
    const { Query, Search } = searchPlugin();
    recordSourceInfo(Query, {
      fields: {
        text: { optional: false, schema: { type: "string" }, description: "What to look for." },
        lang: { optional: true, default: "en", schema: { type: "string" }, description: "Language code." },
      },
    });
    expect(manifestOf(Search).tools[0]?.parameters).toEqual([
      { name: "text", type: "string", description: "What to look for.", required: true },
      { name: "lang", type: "string", description: "Language code.", required: false, default: "en" },
    ]);
    const search = buildPlugin(Search);
    expect(await callTool(search, "search", { text: "tea" })).toEqual({ text: "tea", lang: "en" });
    expect(await callTool(search, "search", { text: "tea", lang: "de" })).toEqual({
      text: "tea",
      lang: "de",
    });
    expect((await invalidParams(search, "search", { text: "tea", lang: 5 })).message).toContain("lang:");
  });

  test("a DTO with no validator at all is read from the source alone", async () => {
    class Lookup {
      id!: number;
      verbose?: boolean;
    }
    @Plugin(base)
    class Finder {
      @Tool({ description: "Find." })
      find(@Args() lookup: Lookup) {
        return { id: lookup.id, verbose: lookup.verbose ?? false };
      }
    }
    recordSourceInfo(Lookup, {
      fields: {
        id: { optional: false, schema: { type: "integer", minimum: 1 } },
        verbose: { optional: true, schema: { type: "boolean" } },
      },
    });
    expect(manifestOf(Finder).tools[0]?.parameters).toEqual([
      { name: "id", type: "integer", required: true, minimum: 1 },
      { name: "verbose", type: "boolean", required: false },
    ]);
    const finder = buildPlugin(Finder);
    expect(await callTool(finder, "find", { id: "3" })).toEqual({ id: 3, verbose: false });
    expect((await invalidParams(finder, "find", { id: 0 })).message).toContain(
      "id: must be at least 1, got 0",
    );
  });
});

describe("nested DTOs and validator bounds", () => {
  class Location {
    @IsNumber() @Min(-90) @Max(90) lat!: number;
    @IsNumber() @Min(-180) @Max(180) lon!: number;
  }
  class ForecastArgs {
    @ValidateNested() @Type(() => Location) location!: Location;
    @IsInt() @Min(1) @Max(7) days: number = 3;
  }
  @Plugin(base)
  class Forecast {
    @Tool({ description: "Forecast." })
    forecast(@Args() args: ForecastArgs) {
      return { location: args.location, days: args.days };
    }
  }

  test("the manifest gives the shape, the integer type and the bounds", () => {
    expect(manifestOf(Forecast).tools[0]?.parameters).toEqual([
      {
        name: "location",
        type: "object",
        required: true,
        properties: {
          lat: { type: "number", description: "-90 to 90" },
          lon: { type: "number", description: "-180 to 180" },
        },
      },
      { name: "days", type: "integer", required: false, default: 3, minimum: 1, maximum: 7 },
    ]);
  });

  test("invokes outside the bounds are -32602 naming the field", async () => {
    const forecast = buildPlugin(Forecast);
    expect(await callTool(forecast, "forecast", { location: { lat: 52.5, lon: 13.4 } })).toEqual({
      location: { lat: 52.5, lon: 13.4 },
      days: 3,
    });
    expect(
      (await invalidParams(forecast, "forecast", { location: { lat: 52.5, lon: 13.4 }, days: 9 })).message,
    ).toContain("days: must be at least 1 and at most 7, got 9");
    expect((await invalidParams(forecast, "forecast", { location: { lat: 100, lon: 0 } })).message).toContain(
      "location.lat: must be at least -90 and at most 90, got 100",
    );
  });

  test("source doc comments describe DTO fields; the validators keep the type", () => {
    class Described {
      @IsInt() @Min(0) count!: number;
    }
    @Plugin(base)
    class Counter {
      @Tool({ description: "Count." })
      count(@Args() args: Described) {
        return args.count;
      }
    }
    recordSourceInfo(Described, {
      fields: {
        count: { optional: false, description: "How many.", schema: { type: "number", maximum: 10 } },
      },
    });
    expect(manifestOf(Counter).tools[0]?.parameters).toEqual([
      { name: "count", type: "integer", description: "How many.", required: true, minimum: 0, maximum: 10 },
    ]);
  });
});
