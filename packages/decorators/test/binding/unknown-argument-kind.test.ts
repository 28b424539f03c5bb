import type { ObjectTypeSchema, ParamIssue } from "@executa/core";
import { buildPlugin, InvalidParamsError, Plugin, Tool } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { objectCheckerOf } from "../../src/binding/coerce.js";
import { invalidArguments, isUnknownArgument } from "../../src/binding/invalid-arguments.js";
import { callTool, rejectionOf } from "../helpers/invoke.js";

const address: ObjectTypeSchema = {
  type: "object",
  properties: { city: { type: "string" } },
  additionalProperties: false,
};

const input: ObjectTypeSchema = {
  type: "object",
  properties: {
    address,
    stops: { type: "array", items: address },
  },
  additionalProperties: false,
};

describe("the checker says which issues are unknown keys", () => {
  const issuesOf = (args: Record<string, unknown>): ParamIssue[] => {
    const checked = objectCheckerOf(input)(args, { coerce: true });
    if (checked.ok) throw new Error("expected issues");
    return checked.issues;
  };

  test("a key of the arguments object is an unknown argument, a dot in its name or not", () => {
    expect(issuesOf({ extra: 1, "a.b": 2 })).toMatchObject([
      { path: "extra", kind: "unknown_argument" },
      { path: "a.b", kind: "unknown_argument" },
    ]);
  });

  test("a key inside an argument, in an object or an array's element, is an unknown property", () => {
    expect(
      issuesOf({ address: { town: "Oslo" }, stops: [{ city: "Bergen" }, { colour: "red" }] }),
    ).toMatchObject([
      { path: "address.town", kind: "unknown_property" },
      { path: "stops.1.colour", kind: "unknown_property" },
    ]);
  });

  test("other issues have no kind", () => {
    const [issue] = issuesOf({ address: { city: 5 } });
    expect(issue).toMatchObject({ path: "address.city" });
    expect(issue).not.toHaveProperty("kind");
  });
});

describe("unknown arguments are told by their kind, not their message", () => {
  const reworded: ParamIssue = {
    path: "colour",
    message: "not a parameter of this tool",
    kind: "unknown_argument",
  };
  const nested: ParamIssue = {
    path: "address.town",
    message: "unknown argument; expected: city",
    kind: "unknown_property",
  };
  const kindless: ParamIssue = { path: "size", message: "unknown argument; expected: city" };

  test("isUnknownArgument reads the kind alone", () => {
    expect(isUnknownArgument(reworded)).toBe(true);
    expect(isUnknownArgument(nested)).toBe(false);
    expect(isUnknownArgument(kindless)).toBe(false);
  });

  test("the -32602 answer lists the unknown arguments by kind and keeps each issue's kind", () => {
    const error = invalidArguments("trip", ["address"], [reworded, nested, kindless]);
    expect(error.message).toBe(
      'Invalid arguments for tool "trip": unknown argument "colour" (expected: address); ' +
        "address.town: unknown argument; expected: city; size: unknown argument; expected: city",
    );
    expect(error.data).toMatchObject({
      unknown: ["colour"],
      issues: [{ kind: "unknown_argument" }, { kind: "unknown_property" }, { path: "size" }],
    });
  });
});

/** A trip planner. */
@Plugin({ name: "trips", version: "1.0.0", description: "Plans trips." })
class Trips {
  @Tool({ description: "Plans a trip." })
  plan() {
    return { planned: true };
  }
}

test("a tool answers an unknown argument with a dot in its name as an unknown argument", async () => {
  const error = await rejectionOf(callTool(buildPlugin(Trips), "plan", { "to.city": "Oslo" }));
  expect(error).toBeInstanceOf(InvalidParamsError);
  expect(error.message).toBe(
    'Invalid arguments for tool "plan": unknown argument "to.city" (expected: none)',
  );
  expect(error.data).toMatchObject({
    unknown: ["to.city"],
    issues: [{ path: "to.city", kind: "unknown_argument" }],
  });
});
