import { buildPlugin, manifestOf } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import {
  REFUSED,
  VALID,
  VALID_RESULT,
} from "../../../bundler/test/source-info/undecorated-nested-fixture/cases.js";
import { Expenses } from "../../../bundler/test/source-info/undecorated-nested-fixture/plugin.js";
import { callTool, invalidParams } from "../helpers/invoke.js";

// The fixture goes through the executa vitest plugin (executaSource), as a plugin's tests
// do: its nested fields carry no decorator and no @Type, and one of their classes is
// imported for its type only. The source reader names each field's class.

describe("undecorated nested DTO fields, their classes named by the source alone", () => {
  const expenses = buildPlugin(Expenses);

  test("become instances of their classes at every depth: getters and methods work", async () => {
    await expect(callTool(expenses, "record", VALID)).resolves.toEqual(VALID_RESULT);
  });

  test.each(REFUSED)("%s is -32602 naming its path", async (_name, args, path, message) => {
    const error = await invalidParams(expenses, "record", args);
    expect((error.data as { issues: unknown[] }).issues).toEqual([
      expect.objectContaining({ path, message: expect.stringMatching(message) }),
    ]);
  });

  test("the nested classes' rules that have a schema field are shown in the manifest", () => {
    const parameters = manifestOf(Expenses).tools[0]?.parameters ?? [];
    const byName = Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter]));
    expect(byName.items?.items?.properties?.unitPrice).toMatchObject({
      type: "number",
      description: "at least 0",
    });
    expect(byName.items?.items?.properties?.label).toMatchObject({ description: "What was bought." });
    expect(byName.category?.properties?.name).toMatchObject({ description: "at least 1 character" });
  });
});
