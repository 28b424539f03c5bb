import { describe, expect, test } from "vitest";
import { InvalidParamsError, type ParamIssue } from "../../src/index.js";

describe("InvalidParamsError", () => {
  test("each issue's kind reaches error.data, a long path cut to a preview or not", () => {
    const long = "k".repeat(10_000);
    const issues: ParamIssue[] = [
      { path: "colour", message: "unknown argument", kind: "unknown_argument" },
      { path: long, message: "unknown argument", kind: "unknown_argument" },
      { path: "address.town", message: "unknown argument", kind: "unknown_property" },
      { path: "days", message: "is required" },
    ];
    const wire = JSON.parse(JSON.stringify(new InvalidParamsError("bad arguments", issues)));
    expect(wire.data.issues.map((issue: ParamIssue) => issue.kind)).toEqual([
      "unknown_argument",
      "unknown_argument",
      "unknown_property",
      undefined,
    ]);
    expect(wire.data.issues[1].path.length).toBeLessThan(long.length);
    expect(wire.data.issues[3]).not.toHaveProperty("kind");
  });
});
