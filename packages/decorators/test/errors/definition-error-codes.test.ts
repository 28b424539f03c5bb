import { CodedError } from "@executa/core";
import { recordSourceInfo } from "@executa/core/internal";
import {
  Args,
  buildPlugin,
  Credential,
  DefinitionError,
  type DefinitionErrorCode,
  Field,
  manifestOf,
  Param,
  Plugin,
  Tool,
} from "@executa/decorators";
import { IsString, Min, ValidateNested } from "class-validator";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { buildManifest } from "../../src/manifest/build-manifest.js";
import { claimStdio } from "../../src/serve-once.js";

const base = { name: "demo", version: "1.0.0", description: "Demo." };

/**
 * One case per code: what a program matching on `code` relies on. Typed as a record over
 * every code, so a code without its case here does not compile.
 */
const CASES = {
  NOT_A_CLASS: () => manifestOf({} as Function),
  PLUGIN_DECORATOR_MISSING: () => {
    class Bare {
      @Tool({ description: "A." }) run() {}
    }
    return manifestOf(Bare);
  },
  NO_TOOLS: () => {
    @Plugin(base)
    class Empty {}
    return manifestOf(Empty);
  },
  DECORATOR_MISPLACED: () => {
    @Plugin(base)
    class Static {
      @Tool({ description: "A." }) static run() {}
    }
    return manifestOf(Static);
  },
  DECORATOR_REPEATED: () => {
    @Plugin(base)
    @Plugin(base)
    class Twice {
      @Tool({ description: "A." }) run() {}
    }
    return manifestOf(Twice);
  },
  TOOL_OPTIONS_MISSING: () => {
    @Plugin(base)
    class NoOptions {
      @Tool(undefined as never) run() {}
    }
    return manifestOf(NoOptions);
  },
  DESCRIPTION_MISSING: () => {
    @Plugin(base)
    class Mute {
      @Tool({ description: "" }) run() {}
    }
    return manifestOf(Mute);
  },
  INVALID_OPTION: () => {
    @Plugin(base)
    class Slow {
      @Tool({ description: "A.", timeout: 0 }) run() {}
    }
    return manifestOf(Slow);
  },
  UNKNOWN_OPTION: () => {
    @Plugin(base)
    class Typo {
      // @ts-expect-error: the misspelling the runtime check catches too
      @Tool({ description: "A.", timout: 5 }) run() {}
    }
    return manifestOf(Typo);
  },
  UNKNOWN_DOC_TAG: () => {
    @Plugin(base)
    class Bounds {
      @Tool({ description: "A." }) run(@Param("days") days: number) {
        return days;
      }
    }
    // What the source reader records for `/** @min 1 */ days: number`.
    recordSourceInfo(Bounds, { unknownTags: [{ member: "run(days)", tag: "min" }] });
    return manifestOf(Bounds);
  },
  ARGUMENT_NAME_MISSING: () => {
    @Plugin(base)
    class NoName {
      @Tool({ description: "A." }) run(@Param("") city: string) {
        return city;
      }
    }
    return manifestOf(NoName);
  },
  INVALID_ARGUMENT_NAME: () => {
    @Plugin(base)
    class Proto {
      @Tool({ description: "A." }) run(@Param("__proto__") value: string) {
        return value;
      }
    }
    return manifestOf(Proto);
  },
  DUPLICATE_TOOL_NAME: () => {
    @Plugin(base)
    class Dup {
      @Tool({ description: "A." }) getItem() {}
      @Tool({ description: "B.", name: "get_item" }) fetch() {}
    }
    return manifestOf(Dup);
  },
  DUPLICATE_ARGUMENT_NAME: () => {
    @Plugin(base)
    class Dup {
      @Tool({ description: "A." }) run(@Param("city") a: string, @Param("city") b: string) {
        return a + b;
      }
    }
    return manifestOf(Dup);
  },
  METADATA_MISSING: () => {
    @Plugin(base)
    class Stripped {
      @Tool({ description: "A." }) run(@Param("city") city: string) {
        return city;
      }
    }
    Reflect.deleteMetadata("design:paramtypes", Stripped.prototype, "run");
    return manifestOf(Stripped);
  },
  UNINFERABLE_TYPE: () => {
    @Plugin(base)
    class Union {
      @Tool({ description: "A." }) run(@Param("id") id: string | number) {
        return id;
      }
    }
    return manifestOf(Union);
  },
  TYPE_CONFLICT: () => {
    @Plugin(base)
    class Contradiction {
      @Tool({ description: "A." }) run(@Param("n", { type: "integer" }) n: string) {
        return n;
      }
    }
    return manifestOf(Contradiction);
  },
  DTO_WITHOUT_FIELDS: () => {
    class Plain {
      a = "";
    }
    @Plugin(base)
    class Undecorated {
      @Tool({ description: "A." }) run(@Args() args: Plain) {
        return args;
      }
    }
    return manifestOf(Undecorated);
  },
  MIXED_PARAM_STYLE: () => {
    class Dto {
      @IsString() a!: string;
    }
    @Plugin(base)
    class Mixed {
      @Tool({ description: "A." }) run(@Args() args: Dto, @Param("b") b: string) {
        return [args, b];
      }
    }
    return manifestOf(Mixed);
  },
  UNDECORATED_PARAMETER: () => {
    @Plugin(base)
    class Loose {
      @Tool({ description: "A." }) run(@Param("a") a: string, b: string) {
        return a + b;
      }
    }
    return manifestOf(Loose);
  },
  NESTED_CLASS_UNKNOWN: () => {
    class Order {
      // An array's element class is not in decorator metadata, and nothing else names it.
      @ValidateNested({ each: true }) lines!: object[];
    }
    @Plugin(base)
    class Orders {
      @Tool({ description: "A." }) run(@Args() order: Order) {
        return order;
      }
    }
    return manifestOf(Orders);
  },
  UNDECORATED_FIELD: () => {
    class Query {
      @IsString() text!: string;
      lang = "en";
    }
    @Plugin(base)
    class Search {
      @Tool({ description: "A." }) run(@Args() query: Query) {
        return query;
      }
    }
    return manifestOf(Search);
  },
  UNSUPPORTED_TYPE: () => {
    @Plugin(base)
    class Callbacks {
      @Tool({ description: "A." }) run(@Param("done") done: () => void) {
        return done;
      }
    }
    // What the source reader records for a function-typed parameter.
    recordSourceInfo(Callbacks, {
      methods: { run: { parameters: [] } },
      unsupported: [{ member: "run(done)", index: 0, type: "() => void", reason: "a function" }],
    });
    return manifestOf(Callbacks);
  },
  RULE_CONFLICT: () => {
    class Stay {
      @Min(5) nights!: number;
    }
    // What the source reader records for `/** @minimum 1 */ nights: number`.
    recordSourceInfo(Stay, {
      fields: { nights: { schema: { type: "number", minimum: 1 }, optional: false } },
    });
    @Plugin(base)
    class Hotel {
      @Tool({ description: "A." }) book(@Args() stay: Stay) {
        return stay.nights;
      }
    }
    return manifestOf(Hotel);
  },
  SCHEMA_UNSUPPORTED: () => {
    @Plugin(base)
    class Steps {
      @Tool({ description: "A." }) run(
        @Args(z.object({ step: z.number().multipleOf(5) })) args: { step: number },
      ) {
        return args.step;
      }
    }
    return manifestOf(Steps);
  },
  SOURCE_MISMATCH: () => {
    @Plugin(base)
    class Stale {
      @Tool({ description: "A." }) run(@Param("days") days: number) {
        return days;
      }
    }
    // Source facts that reflection (Number) contradicts: recorded before the type changed.
    recordSourceInfo(Stale, {
      methods: {
        run: { parameters: [{ name: "days", index: 0, optional: false, schema: { type: "string" } }] },
      },
    });
    return manifestOf(Stale);
  },
  UNDECLARED_CREDENTIAL: () => {
    @Plugin({ ...base, credentials: [{ name: "A_KEY" }] })
    class Secretive {
      @Tool({ description: "A." }) run(@Credential("B_KEY") key: string) {
        return key;
      }
    }
    return manifestOf(Secretive);
  },
  INSTANCE_FAILED: () => {
    @Plugin(base)
    class Throwing {
      constructor() {
        throw new Error("no config");
      }
      @Tool({ description: "A." }) run() {}
    }
    return buildPlugin(Throwing);
  },
  MANIFEST_INVALID: () =>
    // A model no decorator check lets through: the net behind them.
    buildManifest({
      className: "Gap",
      target: class Gap {},
      info: { name: "gap", version: "1.0.0", description: "Gap." },
      tools: [
        {
          methodName: "run",
          name: "run",
          description: "R.",
          timeout: 1.5,
          input: { type: "object" },
          slots: [],
        },
      ],
    }),
  SERVED_TWICE: () => {
    // What serve() records for the first class on stdio (a real second serve() is in test/serve).
    claimStdio("First", "first");
    try {
      return claimStdio("Second", "second");
    } finally {
      delete (globalThis as Record<symbol, unknown>)[Symbol.for("executa.decorators.servedOnStdio")];
    }
  },
} satisfies Record<DefinitionErrorCode, () => unknown>;

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("each DefinitionError code is produced by its case", () => {
  test.each(Object.entries(CASES))("%s", (code, run) => {
    const error = thrownBy(run);
    expect(error).toBeInstanceOf(DefinitionError);
    expect(error).toBeInstanceOf(CodedError);
    expect(error).toMatchObject({ name: "DefinitionError", code });
  });
});

test("a DefinitionError keeps class, member, problem and fix, and the message names them", () => {
  const error = thrownBy(CASES.UNINFERABLE_TYPE) as DefinitionError;
  expect(error.className).toBe("Union");
  expect(error.member).toBe('run, parameter #0 "id"');
  expect(error.problem).toMatch(/^cannot infer the type: reflection says Object/);
  expect(error.message).toBe(`Union.run, parameter #0 "id": ${error.problem}\n  Fix: ${error.fix}`);
});

test("a DTO property's uninferable type has the same code as a parameter's", () => {
  class Dto {
    @Field({ description: "?" }) value!: string | number;
  }
  @Plugin(base)
  class Host {
    @Tool({ description: "A." }) run(@Args() args: Dto) {
      return args;
    }
  }
  expect(thrownBy(() => manifestOf(Host))).toMatchObject({ code: "UNINFERABLE_TYPE" });
});
