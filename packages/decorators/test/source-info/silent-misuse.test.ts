// Runs under the executa source reader (the root vitest config's executaSource plugin):
// each class below is read at test time, as `executa build` and `executa dev` read it.
import { sourceInfoOf } from "@executa/core/internal";
import { Args, manifestOf, Plugin, Tool } from "@executa/decorators";
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
    expect(manifestOf(Documented).tools[0]?.parameters[0]).toMatchObject({
      name: "days",
      type: "integer",
      minimum: 1,
      maximum: 7,
    });
  });
});
