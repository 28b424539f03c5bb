import { Args, buildPlugin, Field, manifestOf, Plugin, Tool } from "@executa/decorators";
import { IsIn, IsInt, IsString } from "class-validator";
import { describe, expect, test } from "vitest";
import { callTool } from "../helpers/invoke.js";

class BaseArgs {
  @IsString() query!: string;
}

class SearchArgs extends BaseArgs {
  @IsInt() @Field({ default: 10, description: "Page size" }) limit!: number;
  @Field({ type: "string", optional: true }) cursor?: string;
}

@Plugin({ name: "search", version: "1.0.0", description: "Search." })
class Search {
  @Tool({ description: "Search things." })
  search(@Args() args: SearchArgs) {
    return { ...args, isInstance: args instanceof SearchArgs };
  }
}

describe("DTO classes", () => {
  test("inherited properties come first; @Field gives description, default and type", () => {
    expect(manifestOf(Search).tools[0]?.parameters).toEqual([
      { name: "query", type: "string", required: true },
      { name: "limit", type: "integer", description: "Page size", required: false, default: 10 },
      { name: "cursor", type: "string", required: false },
    ]);
  });

  test("a @Field default without an initializer is applied; a @Field-only property passes the whitelist", async () => {
    const definition = buildPlugin(Search);
    expect(await callTool(definition, "search", { query: "q" })).toEqual({
      query: "q",
      limit: 10,
      isInstance: true,
    });
    expect(await callTool(definition, "search", { query: "q", cursor: "c2", limit: "3" })).toEqual({
      query: "q",
      limit: 3,
      cursor: "c2",
      isInstance: true,
    });
  });
});

describe("string-literal unions in DTOs", () => {
  class UnitsArgs {
    @IsIn(["metric", "imperial"]) units!: "metric" | "imperial";
    @IsIn([1, 2, 3]) level!: 1 | 2 | 3;
  }

  @Plugin({ name: "unions", version: "1.0.0", description: "Literal unions." })
  class Unions {
    @Tool({ description: "Echo." })
    echo(@Args() args: UnitsArgs) {
      return { ...args };
    }
  }

  test("take their type from the @IsIn values, since they reflect as Object", async () => {
    const params = manifestOf(Unions).tools[0]?.parameters;
    expect(params).toEqual([
      { name: "units", type: "string", required: true, enum: ["metric", "imperial"] },
      { name: "level", type: "integer", required: true, enum: [1, 2, 3] },
    ]);
    expect(await callTool(buildPlugin(Unions), "echo", { units: "metric", level: "2" })).toEqual({
      units: "metric",
      level: 2,
    });
  });
});
