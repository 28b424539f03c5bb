import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

// The MCP Inspector's CLI mode (0.15.0: the last release that runs on Node 20) against the
// built single executable, as an MCP client author would check a server.
const binary = fileURLToPath(new URL("../dist/toolbox", import.meta.url));
const inspectorPackage = createRequire(join(process.cwd(), "package.json")).resolve(
  "@modelcontextprotocol/inspector/package.json",
);
const inspectorCli = join(dirname(inspectorPackage), "cli", "build", "cli.js");
const run = promisify(execFile);

async function inspect(...args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, [inspectorCli, "--cli", binary, ...args], {
    timeout: 60_000,
  });
  return JSON.parse(stdout);
}

beforeAll(() => {
  if (!existsSync(binary))
    throw new Error(`${binary} is missing: run \`pnpm --filter @executa-apps/toolbox build\``);
  if (!existsSync(inspectorCli)) throw new Error(`the MCP Inspector's CLI is not at ${inspectorCli}`);
});

describe("MCP Inspector --cli against the toolbox binary", () => {
  it("lists every tool with its input schema", async () => {
    const listed = (await inspect("--method", "tools/list")) as {
      tools: { name: string; inputSchema: unknown }[];
    };
    expect(listed.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["json_format", "base64_encode", "base64_decode", "hash_text", "batch_hash"]),
    );
    const jsonFormat = listed.tools.find((tool) => tool.name === "json_format");
    expect(jsonFormat?.inputSchema).toMatchObject({
      type: "object",
      properties: { json_string: { type: "string" }, indent: { type: "integer", default: 2 } },
      required: ["json_string"],
    });
  });

  it("calls a tool and gets structured content plus the same JSON as text", async () => {
    const result = (await inspect(
      "--method",
      "tools/call",
      "--tool-name",
      "json_format",
      "--tool-arg",
      'json_string={"a":1}',
      "--tool-arg",
      "indent=4",
    )) as { content: { type: string; text: string }[]; structuredContent: unknown };
    const expected = { formatted: '{\n    "a": 1\n}', valid: true };
    expect(result.structuredContent).toEqual(expected);
    expect(JSON.parse(result.content[0]!.text)).toEqual(expected);
  });

  it("reports arguments outside the schema as isError, naming the parameter", async () => {
    const result = (await inspect(
      "--method",
      "tools/call",
      "--tool-name",
      "hash_text",
      "--tool-arg",
      "text=a",
      "--tool-arg",
      "algorithm=crc32",
    )) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain("algorithm: must be one of");
  });
});
