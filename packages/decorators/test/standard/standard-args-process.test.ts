// @Args(schema) in a minified bundle (zod and valibot inlined by the author's build),
// spawned and driven over real pipes under Executa and MCP.
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { bundleWithTsup } from "../helpers/build-fixture.js";
import { bundledPlugin } from "../helpers/bundled-fixture.js";
import { spawnPlugin } from "../helpers/spawn-plugin.js";

const entry = fileURLToPath(new URL("../fixtures/standard-schema-main.ts", import.meta.url));

describe("Standard Schema tools in a minified bundle, over real pipes", () => {
  const served = bundledPlugin(() => bundleWithTsup(entry, { minify: true }));

  const invoke = (tool: string, args: unknown) =>
    served.plugin.request("invoke", { tool, arguments: args, context: { invoke_id: `inv-${tool}` } });

  test("describe: each tool's parameters come from its schema", async () => {
    const frame = await served.plugin.request("describe");
    const tools = (frame.result as { tools: { name: string; parameters: unknown[] }[] }).tools;
    expect(tools.find((tool) => tool.name === "record")?.parameters).toMatchObject([
      { name: "title", type: "string", required: true, maxLength: 20 },
      { name: "amount", type: "number", required: true },
      { name: "spentAt", type: "string", required: true },
    ]);
    expect(tools.find((tool) => tool.name === "forecast")?.parameters).toMatchObject([
      { name: "city", type: "string", required: true },
      { name: "days", type: "integer", required: false, default: 3 },
    ]);
  });

  test("the methods receive the libraries' output values", async () => {
    expect(
      (await invoke("record", { title: "Taxi", amount: 12, spentAt: "2026-01-02T03:04:05Z" })).result,
    ).toMatchObject({ success: true, data: { title: "Taxi", isDate: true, year: 2026 } });
    expect((await invoke("forecast", { city: "Oslo" })).result).toMatchObject({
      success: true,
      data: { city: "Oslo", days: 3 },
    });
  });

  test.each([
    ["record", "a refinement", { title: "?", amount: 1, spentAt: "2026-01-02T03:04:05Z" }, "title"],
    ["record", "a bound", { title: "Taxi", amount: -1, spentAt: "2026-01-02T03:04:05Z" }, "amount"],
    [
      "record",
      "an unknown argument",
      { title: "Taxi", amount: 1, spentAt: "2026-01-02T03:04:05Z", tip: 1 },
      "tip",
    ],
    ["forecast", "an integer bound", { city: "Oslo", days: 9 }, "days"],
  ])("%s: %s is -32602 naming its path, and the plugin keeps serving", async (tool, _what, args, path) => {
    const frame = await invoke(tool, args);
    expect(frame.error).toMatchObject({
      code: -32602,
      data: { issues: [expect.objectContaining({ path })] },
    });
    expect((await invoke("forecast", { city: "Oslo" })).result).toMatchObject({ success: true });
  });

  test("served over MCP, inputSchema is the schema's JSON Schema", async () => {
    const mcp = spawnPlugin(served.bundle.file, { EXECUTA_PROTOCOL: "mcp" });
    try {
      const frame = await mcp.request("tools/list");
      const tools = (frame.result as { tools: { name: string; inputSchema: unknown }[] }).tools;
      expect(tools.find((tool) => tool.name === "record")?.inputSchema).toMatchObject({
        type: "object",
        properties: {
          title: { type: "string", minLength: 1, maxLength: 20 },
          amount: { type: "number", exclusiveMinimum: 0 },
          spentAt: { type: "string", format: "date-time" },
        },
        required: ["title", "amount", "spentAt"],
        additionalProperties: false,
      });
    } finally {
      mcp.child.kill();
    }
  });
});
