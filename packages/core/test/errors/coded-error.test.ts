import { describe, expect, test } from "vitest";
import { CodedError, NoInvokeContextError, SchemaConversionError } from "../../src/index.js";

type DemoCode = "BROKEN" | "MISSING";

class DemoError extends CodedError<DemoCode> {
  override readonly name = "DemoError";
  constructor(code: DemoCode, problem: string, fix: string, subject?: string, cause?: unknown) {
    super(code, problem, fix, { subject, cause });
  }
}

describe("CodedError", () => {
  test("writes the message from the problem and the fix, the fix on its own line", () => {
    const error = new DemoError("BROKEN", "the thing is broken", "mend it");
    expect(error.message).toBe("the thing is broken\n  Fix: mend it");
    expect(error).toMatchObject({ code: "BROKEN", problem: "the thing is broken", fix: "mend it" });
    expect(error.name).toBe("DemoError");
  });

  test("puts the subject before the problem", () => {
    const error = new DemoError("MISSING", "no name", "name it", "Weather.getWeather");
    expect(error.message).toBe("Weather.getWeather: no name\n  Fix: name it");
    expect(error.problem).toBe("no name");
  });

  test("carries the cause, and no cause property when none is given", () => {
    const cause = new Error("underneath");
    expect(new DemoError("BROKEN", "p", "f", undefined, cause).cause).toBe(cause);
    expect(Object.hasOwn(new SchemaConversionError("NOT_AN_OBJECT", "p", "f"), "cause")).toBe(false);
  });

  test("each coded error of core is one, and `instanceof` tells the classes apart", () => {
    const conversion = new SchemaConversionError("UNSUPPORTED_REF", "a $ref to elsewhere", "inline it");
    const outside = new NoInvokeContextError();
    expect(conversion).toBeInstanceOf(CodedError);
    expect(outside).toBeInstanceOf(CodedError);
    expect(new DemoError("BROKEN", "p", "f")).toBeInstanceOf(CodedError);
    expect(conversion).not.toBeInstanceOf(NoInvokeContextError);
    expect(outside).not.toBeInstanceOf(SchemaConversionError);
    expect({ code: "BROKEN", problem: "p", fix: "f" }).not.toBeInstanceOf(CodedError);
    expect(new Error("p\n  Fix: f")).not.toBeInstanceOf(CodedError);
  });

  test("the messages of core's coded errors are the ones they always had", () => {
    expect(new SchemaConversionError("UNSUPPORTED_REF", "a $ref to elsewhere", "inline it").message).toBe(
      "a $ref to elsewhere\n  Fix: inline it",
    );
    const outside = new NoInvokeContextError();
    expect(outside.message).toBe(`currentContext() was called outside a tool call\n  Fix: ${outside.fix}`);
    expect(outside.problem).toBe("currentContext() was called outside a tool call");
    expect(outside.code).toBe("NO_INVOKE_CONTEXT");
  });
});
