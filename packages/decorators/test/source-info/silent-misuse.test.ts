// Runs under the executa source reader (the root vitest config's executaSource plugin):
// each class below is read at test time, as `executa build` and `executa dev` read it.
import { sourceInfoOf } from "@executa/core/internal";
import { Args, Field, manifestOf, Param, Plugin, Tool } from "@executa/decorators";
import { Max, Min } from "class-validator";
import { describe, expect, test } from "vitest";
import { startupError } from "../helpers/startup-error.js";

const base = { name: "demo", version: "1.0.0", description: "Demo." };

describe("misuse the source shows is refused at startup, with a code and a fix", () => {
  test("@Tool() on a private method: DECORATOR_MISPLACED", () => {
    @Plugin(base)
    class Hidden {
      /** Public. */
      @Tool()
      open() {
        return "open";
      }
      /** Kept from callers by TypeScript. */
      @Tool()
      // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the private tool is what is under test
      private secret() {
        return "secret";
      }
    }
    expect(sourceInfoOf(Hidden)?.methods?.secret?.visibility).toBe("private");
    expect(sourceInfoOf(Hidden)?.methods?.open?.visibility).toBeUndefined();
    const error = startupError(Hidden);
    expect(error.code).toBe("DECORATOR_MISPLACED");
    expect(error.message).toContain("Hidden.secret: @Tool() is on a private method");
    expect(error.message).toContain("Fix: make the method public (remove `private`)");
  });

  test("@Tool() on a protected method: DECORATOR_MISPLACED", () => {
    @Plugin(base)
    class Hidden {
      /** Kept from callers by TypeScript, except subclasses. */
      @Tool()
      protected internal() {
        return "internal";
      }
    }
    const error = startupError(Hidden);
    expect(error.code).toBe("DECORATOR_MISPLACED");
    expect(error.message).toContain("Hidden.internal: @Tool() is on a protected method");
  });

  test("a public @Tool() method is a tool", () => {
    @Plugin(base)
    class Open {
      /** Public. */
      @Tool()
      public open() {
        return "open";
      }
    }
    expect(manifestOf(Open).tools.map((tool) => tool.name)).toEqual(["open"]);
  });
});

describe("a doc-comment tag the schema does not know is refused, with the tag it resembles", () => {
  test("a shortened bound on a parameter: @min → did you mean @minimum?", () => {
    @Plugin(base)
    class Forecast {
      /** Forecast. */
      @Tool()
      forecast(/** Days ahead. @min 1 @max 7 */ days: number) {
        return days;
      }
    }
    expect(sourceInfoOf(Forecast)?.unknownTags).toEqual([
      { member: "forecast(days)", tag: "min" },
      { member: "forecast(days)", tag: "max" },
    ]);
    const error = startupError(Forecast);
    expect(error.code).toBe("UNKNOWN_DOC_TAG");
    expect(error.message).toContain(
      "Forecast.forecast(days): the doc comment's tag @min is not one the schema knows, so it would be ignored",
    );
    expect(error.message).toContain("Fix: did you mean @minimum?");
  });

  test("a misspelled tag on a DTO field, and one inside a nested shape", () => {
    class Range {
      /**
       * Lowest.
       * @minimun 0
       */
      low!: number;
      nested!: {
        /** @intger */
        count: number;
      };
    }
    @Plugin(base)
    class Ranges {
      /** Takes a range. */
      @Tool()
      take(@Args() range: Range) {
        return range.low;
      }
    }
    expect(sourceInfoOf(Range)?.unknownTags).toEqual([
      { member: "low", tag: "minimun" },
      { member: "nested.count", tag: "intger" },
    ]);
    const error = startupError(Ranges);
    expect(error.code).toBe("UNKNOWN_DOC_TAG");
    // The plugin's own reading holds the DTO's fields, where the tool meets them.
    expect(error.message).toContain("Ranges.take(range).low: the doc comment's tag @minimun");
    expect(error.message).toContain("Fix: did you mean @minimum?");
  });

  test("schema tags and documentation tags pass; a decorator named in prose is no tag", () => {
    @Plugin(base)
    class Documented {
      /** Forecast. */
      @Tool()
      forecast(
        /**
         * Days ahead; see @Args for the DTO style.
         * @minimum 1
         * @maximum 7
         * @integer
         * @example 3
         * @deprecated use weeks
         */
        days: number,
      ) {
        return days;
      }
    }
    expect(sourceInfoOf(Documented)?.unknownTags).toBeUndefined();
    expect(manifestOf(Documented).tools[0]?.parameters?.[0]).toMatchObject({
      name: "days",
      type: "integer",
      minimum: 1,
      maximum: 7,
    });
  });
});

describe("a parameter typed with a class but without @Args() is refused, not bound as one argument", () => {
  class SearchArgs {
    /** What to look for. */
    query!: string;
    limit?: number;
  }

  test("UNDECORATED_PARAMETER naming the class and both decorators that would decide", () => {
    @Plugin(base)
    class Search {
      /** Searches. */
      @Tool()
      search(args: SearchArgs) {
        return args.query;
      }
    }
    const error = startupError(Search);
    expect(error.code).toBe("UNDECORATED_PARAMETER");
    expect(error.message).toContain(
      'Search.search, parameter #0 "args": the parameter is typed with the class SearchArgs but has no decorator',
    );
    expect(error.message).toContain(
      "Fix: add @Args() to take SearchArgs's fields as the tool's arguments (the usual DTO style), or " +
        '@Param("args") to take one object argument named "args"',
    );
  });

  test("with @Args() the fields are the arguments; with @Param() it is one object argument; an interface stays one", () => {
    interface Filter {
      tag: string;
    }
    @Plugin(base)
    class Search {
      /** Searches by fields. */
      @Tool()
      byFields(@Args() args: SearchArgs) {
        return args.query;
      }
      /** Searches by one object. */
      @Tool()
      byObject(@Param("args") args: SearchArgs) {
        return args.query;
      }
      /** Filters. */
      @Tool()
      filtered(filter: Filter) {
        return filter.tag;
      }
    }
    const [byFields, byObject, filtered] = manifestOf(Search).tools;
    expect(byFields?.parameters?.map((parameter) => parameter.name)).toEqual(["query", "limit"]);
    expect(byObject?.parameters?.map((parameter) => [parameter.name, parameter.type])).toEqual([
      ["args", "object"],
    ]);
    expect(filtered?.parameters?.map((parameter) => [parameter.name, parameter.type])).toEqual([
      ["filter", "object"],
    ]);
  });
});

describe("a rule given twice with different values is refused", () => {
  test("@Min(5) and @minimum 1 on one DTO field: RULE_CONFLICT naming both", () => {
    class Booking {
      /**
       * Nights.
       * @minimum 1
       */
      @Min(5)
      nights!: number;
    }
    @Plugin(base)
    class Hotel {
      /** Books. */
      @Tool()
      book(@Args() booking: Booking) {
        return booking.nights;
      }
    }
    const error = startupError(Hotel);
    expect(error.code).toBe("RULE_CONFLICT");
    expect(error.message).toContain(
      "the minimum is given twice with different values: @Min(5) and the doc tag @minimum 1",
    );
  });

  test("the same value twice is no conflict; an explicit option overrides both", () => {
    class Agreeing {
      /** @maximum 30 */
      @Max(30)
      nights!: number;
    }
    class Overridden {
      /** @maximum 30 */
      @Max(20)
      @Field({ maximum: 10 })
      nights!: number;
    }
    @Plugin(base)
    class Hotel {
      /** Books. */
      @Tool()
      book(@Args() booking: Agreeing) {
        return booking.nights;
      }
      /** Books briefly. */
      @Tool()
      brief(@Args() booking: Overridden) {
        return booking.nights;
      }
    }
    const [book, brief] = manifestOf(Hotel).tools;
    expect(book?.parameters?.[0]).toMatchObject({ name: "nights", maximum: 30 });
    expect(brief?.parameters?.[0]).toMatchObject({ name: "nights", maximum: 10 });
  });
});
