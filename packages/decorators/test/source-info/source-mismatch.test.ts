import type { Schema } from "@executa/core";
import { recordSourceInfo, withoutNull } from "@executa/core/internal";
import { Args, DefinitionError, Field, manifestOf, Param, Plugin, Tool } from "@executa/decorators";
import { IsString } from "class-validator";
import { describe, expect, test } from "vitest";
import { checkSourceAgreement } from "../../src/model/source-agreement.js";
import { methodParamTypes } from "../../src/reflection/reflect-types.js";
import { startupError } from "../helpers/startup-error.js";

// Source facts are planted by hand against the real reflection SWC emits for these
// classes: facts the reflection contradicts stand for stale facts or a misread type.

const base = { name: "demo", version: "1.0.0", description: "Demo." };

class Place {
  city!: string;
}

@Plugin(base)
class Reflected {
  @Tool({ description: "Run." })
  run(
    @Param("text") text: string,
    @Param("unit") unit: "c" | "f",
    @Param("count") count: number,
    @Param("level") level: 1 | 2,
    @Param("flag") flag: boolean,
    @Param("tags") tags: string[],
    @Param("when") when: Date,
    @Param("where") where: Place,
    @Param("loose") loose: string | number,
  ) {
    return { text, unit, count, level, flag, tags, when, where, loose };
  }
}

const NAMES = ["text", "unit", "count", "level", "flag", "tags", "when", "where", "loose"] as const;
type Name = (typeof NAMES)[number];

/** What the source reader records for `Reflected.run` when its facts are current. */
const CURRENT: Record<Name, Schema> = {
  text: { type: "string" },
  unit: { type: "string", enum: ["c", "f"] },
  count: { type: "number" },
  level: { type: "integer", enum: [1, 2] },
  flag: { type: "boolean" },
  tags: { type: "array", items: { type: "string" } },
  when: { type: "string", format: "date-time" },
  where: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  loose: { type: "number" },
};

/** Records the facts of `Reflected.run`, with `changes` replacing some parameters' schemas. */
function recordRun(changes: Partial<Record<Name, Schema>>): void {
  const schemas = { ...CURRENT, ...changes };
  recordSourceInfo(Reflected, {
    methods: {
      run: {
        parameters: NAMES.map((name, index) => ({ name, index, optional: false, schema: schemas[name] })),
      },
    },
  });
}

test("the parameters reflect as the constructors the cases below rely on", () => {
  expect(methodParamTypes(Reflected.prototype, "run")).toEqual([
    String,
    String,
    Number,
    Number,
    Boolean,
    Array,
    Date,
    Place,
    Object,
  ]);
});

describe("reflection and source facts that agree build the manifest", () => {
  test.each<[string, Partial<Record<Name, Schema>>]>([
    ["current facts (String/string, String/string enum, Number/number, Number/integer enum, …)", {}],
    ["Number and integer", { count: { type: "integer" } }],
    ["Boolean and a boolean literal union", { flag: { type: "boolean", enum: [true] } }],
    ["Array and an array of objects", { tags: { type: "array", items: { type: "object" } } }],
    ["a user class and an object without a recorded shape", { where: { type: "object" } }],
    ["Object and a string enum", { loose: { type: "string", enum: ["a", "b"] } }],
    ["Object and an array", { loose: { type: "array", items: { type: "number" } } }],
    ["String and a string or null", { text: { anyOf: [{ type: "string" }, { type: "null" }] } }],
  ])("%s", (_case, changes) => {
    recordRun(changes);
    const parameters = manifestOf(Reflected).tools[0]?.parameters ?? [];
    const schemas = { ...CURRENT, ...changes };
    expect(parameters.map((parameter) => [parameter.name, parameter.type])).toEqual(
      NAMES.map((name) => [name, (withoutNull(schemas[name]) as { type?: string }).type]),
    );
  });
});

describe("reflection that contradicts the source facts is a SOURCE_MISMATCH startup error", () => {
  test("Number against string names the class, the parameter, both types and the fix", () => {
    recordRun({ count: { type: "string" } });
    const error = startupError(Reflected);
    expect(error.code).toBe("SOURCE_MISMATCH");
    expect(error.className).toBe("Reflected");
    expect(error.member).toBe('run, parameter #2 "count"');
    expect(error.problem).toBe("reflection says Number but the source analysis recorded string");
    expect(error.fix).toMatch(/^rebuild so that the recorded source facts are current/);
    expect(error.fix).toContain('@Param("count", { type: … })');
    expect(error.message).toBe(`Reflected.run, parameter #2 "count": ${error.problem}\n  Fix: ${error.fix}`);
  });

  test.each<[Name, Schema, string]>([
    ["text", { type: "integer" }, "reflection says String but the source analysis recorded number (integer)"],
    [
      "unit",
      { type: "number", enum: [1, 2] },
      "reflection says String but the source analysis recorded 1 | 2",
    ],
    [
      "level",
      { type: "string", enum: ["a", "b"] },
      'reflection says Number but the source analysis recorded "a" | "b"',
    ],
    [
      "flag",
      { type: "string", enum: ["yes", "no"] },
      'reflection says Boolean but the source analysis recorded "yes" | "no"',
    ],
    ["tags", { type: "object" }, "reflection says Array but the source analysis recorded an object"],
    ["when", { type: "string" }, "reflection says Date but the source analysis recorded string"],
    [
      "where",
      { type: "array", items: { type: "string" } },
      "reflection says Place but the source analysis recorded string[]",
    ],
  ])("%s: %j", (name, schema, problem) => {
    recordRun({ [name]: schema });
    const error = startupError(Reflected);
    expect(error.code).toBe("SOURCE_MISMATCH");
    expect(error.member).toBe(`run, parameter #${NAMES.indexOf(name)} "${name}"`);
    expect(error.problem).toBe(problem);
  });

  test("a DTO field: design:type against the recorded field", () => {
    class Query {
      @IsString() text!: string;
      @Field() limit!: number;
    }
    @Plugin(base)
    class Search {
      @Tool({ description: "Search." }) find(@Args() query: Query) {
        return query;
      }
    }
    recordSourceInfo(Query, {
      fields: {
        text: { optional: false, schema: { type: "string" } },
        limit: { optional: false, schema: { type: "boolean" } },
      },
    });
    const error = startupError(Search);
    expect(error.code).toBe("SOURCE_MISMATCH");
    expect(error.className).toBe("Query");
    expect(error.member).toBe("limit (@Args() of Search.find)");
    expect(error.problem).toBe("reflection says Number but the source analysis recorded boolean");
    expect(error.fix).toContain("@Field({ type: … })");
  });
});

describe("the recorded type is named as written when the reader kept the annotation", () => {
  const problemFor = (source: Schema, typeText: string | undefined): string => {
    try {
      checkSourceAgreement({
        className: "Reflected",
        member: 'run, parameter #4 "flag"',
        decorator: '@Param("flag", …)',
        reflected: { kind: "primitive", type: "boolean" },
        source,
        typeText,
      });
    } catch (error) {
      expect(error).toBeInstanceOf(DefinitionError);
      expect((error as DefinitionError).code).toBe("SOURCE_MISMATCH");
      return (error as DefinitionError).problem;
    }
    throw new Error("expected a SOURCE_MISMATCH");
  };
  const units: Schema = { type: "string", enum: ["metric", "imperial"] };

  test.each<[string, Schema, string | undefined, string]>([
    ["an alias: both", units, "Units", 'Units ("metric" | "imperial")'],
    ["a union written alike: once", units, '"metric"|"imperial"', '"metric"|"imperial"'],
    ["an interface: both", { type: "object" }, "Place", "Place (an object)"],
    ["an array: once", { type: "array", items: { type: "string" } }, "string[]", "string[]"],
    ["number with @IsInt: the schema's text", { type: "integer" }, "number", "number (integer)"],
    ["no annotation: the schema's text", units, undefined, '"metric" | "imperial"'],
  ])("%s", (_case, source, typeText, recorded) => {
    expect(problemFor(source, typeText)).toBe(
      `reflection says Boolean but the source analysis recorded ${recorded}`,
    );
  });

  test("through the manifest: the planted typeText of a parameter", () => {
    recordSourceInfo(Reflected, {
      methods: {
        run: {
          parameters: NAMES.map((name, index) =>
            name === "count"
              ? { name, index, optional: false, schema: units, typeText: "Units" }
              : { name, index, optional: false, schema: CURRENT[name] },
          ),
        },
      },
    });
    expect(startupError(Reflected).problem).toBe(
      'reflection says Number but the source analysis recorded Units ("metric" | "imperial")',
    );
  });
});

describe("an explicit type option decides and skips the check", () => {
  test("on a parameter", () => {
    @Plugin(base)
    class Explicit {
      @Tool({ description: "Run." }) run(@Param("count", { type: "string" }) count: number) {
        return count;
      }
    }
    recordSourceInfo(Explicit, {
      methods: {
        run: { parameters: [{ name: "count", index: 0, optional: false, schema: { type: "string" } }] },
      },
    });
    expect(manifestOf(Explicit).tools[0]?.parameters?.[0]).toMatchObject({ name: "count", type: "string" });
  });

  test("on a DTO field", () => {
    class Query {
      @Field({ type: "boolean" }) limit!: number;
    }
    @Plugin(base)
    class Search {
      @Tool({ description: "Search." }) find(@Args() query: Query) {
        return query;
      }
    }
    recordSourceInfo(Query, { fields: { limit: { optional: false, schema: { type: "boolean" } } } });
    expect(manifestOf(Search).tools[0]?.parameters?.[0]).toMatchObject({ name: "limit", type: "boolean" });
  });
});
