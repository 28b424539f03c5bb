// Runs under the executa source reader (the root vitest config's executaSource plugin):
// each class below is read at test time, as `executa build` and `executa dev` read it.
import { sourceInfoOf } from "@executa/core/internal";
import { manifestOf, Plugin, Tool } from "@executa/decorators";
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
