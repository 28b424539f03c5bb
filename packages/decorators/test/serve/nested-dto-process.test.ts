import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { bundleWithTsup } from "../helpers/build-fixture.js";
import { bundledPlugin } from "../helpers/bundled-fixture.js";
import { spawnPlugin } from "../helpers/spawn-plugin.js";

const entry = fileURLToPath(new URL("../fixtures/expense-main.ts", import.meta.url));

const VALID = {
  title: "Trip",
  payer: { email: "ana@example.com" },
  items: [{ label: "Taxi", unitPrice: 12.5 }],
  category: { name: "Travel", children: [{ name: "Transport", children: [{ name: "Taxi" }] }] },
};

describe("nested DTOs in a minified bundle, spawned and driven over real pipes", () => {
  const served = bundledPlugin(() => bundleWithTsup(entry, { minify: true }));

  const record = (args: unknown) =>
    served.plugin.request("invoke", {
      tool: "record",
      arguments: args,
      context: { invoke_id: "inv-record" },
    });

  test("the manifest shows the length bound", async () => {
    const frame = await served.plugin.request("describe");
    const parameters = (frame.result as { tools: { parameters: { name: string }[] }[] }).tools[0]?.parameters;
    expect(parameters?.find((parameter) => parameter.name === "title")).toMatchObject({ maxLength: 20 });
  });

  test("served over MCP, inputSchema shows nested required fields, bounds and the recursive class once, by $ref", async () => {
    const mcp = spawnPlugin(served.bundle.file, { EXECUTA_PROTOCOL: "mcp" });
    try {
      const frame = await mcp.request("tools/list");
      const [tool] = (frame.result as { tools: { inputSchema: Record<string, unknown> }[] }).tools;
      const node = {
        type: "object",
        properties: {
          name: { type: "string", minLength: 1 },
          children: { type: "array", items: { $ref: "#/$defs/CategoryNode" } },
        },
        required: ["name"],
        additionalProperties: false,
      };
      expect(tool?.inputSchema).toMatchObject({
        properties: {
          title: { type: "string", maxLength: 20 },
          payer: { type: "object", required: ["email"], additionalProperties: false },
          items: { type: "array", items: { required: ["label", "unitPrice"] } },
          category: { $ref: "#/$defs/CategoryNode" },
        },
        required: ["title", "payer", "items"],
        additionalProperties: false,
        $defs: { CategoryNode: node },
      });
    } finally {
      mcp.child.kill();
    }
  });

  test("nested values are instances: getters and methods answer", async () => {
    expect((await record(VALID)).result).toMatchObject({
      success: true,
      data: { domain: "example.com", doubled: [25], depth: 3 },
    });
  });

  test.each([
    ["a nested @IsEmail()", { ...VALID, payer: { email: "x" } }, "payer.email"],
    ["an element's @Min(0)", { ...VALID, items: [{ label: "Refund", unitPrice: -5 }] }, "items.0.unitPrice"],
    [
      "an unknown key at depth 3",
      {
        ...VALID,
        category: { name: "Travel", children: [{ name: "T", children: [{ name: "x", colour: 1 }] }] },
      },
      "category.children.0.children.0.colour",
    ],
    ["a title too long", { ...VALID, title: "t".repeat(21) }, "title"],
  ])("%s is -32602 naming its path, and the plugin keeps serving", async (_name, args, path) => {
    const frame = await record(args);
    expect(frame.error).toMatchObject({
      code: -32602,
      data: { issues: [expect.objectContaining({ path })] },
    });
    expect((await record(VALID)).result).toMatchObject({ success: true });
  });
});
