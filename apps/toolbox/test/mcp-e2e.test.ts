import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { RpcError } from "@executa/core";
import { type PluginTestClient, runBinary } from "@executa/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The built single executable and bundle (`pnpm --filter @executa-apps/toolbox build`),
// driven over real pipes by the official MCP SDK client and by an Executa host.
const binary = fileURLToPath(new URL("../dist/toolbox", import.meta.url));
const bundle = fileURLToPath(new URL("../dist/toolbox.cjs", import.meta.url));

/** Each tool with good arguments, then bad ones (missing, wrong type, outside the enum, failing). */
const CALLS: [tool: string, args: Record<string, unknown>][] = [
  ["json_format", { json_string: '{"b":1,"a":[1,2]}', indent: 4 }],
  ["json_format", { json_string: "{not json" }],
  ["json_format", { indent: 2 }],
  ["base64_encode", { text: "héllo" }],
  ["base64_encode", { text: 42 }],
  ["base64_decode", { encoded: "aMOpbGxv" }],
  ["base64_decode", {}],
  ["hash_text", { text: "a", algorithm: "md5" }],
  ["hash_text", { text: "a", algorithm: "crc32" }],
  ["batch_hash", { texts: ["a", "b"], algorithm: "sha1" }],
  ["batch_hash", { texts: "a" }],
  ["generate_dataset", { rows: 3, columns: ["id", "name"] }],
  ["generate_dataset", { rows: "many" }],
];

async function connectMcp(
  command: string,
  args: string[],
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command, args, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "toolbox-mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** What an MCP tool result must be, given the Executa answer to the same call. */
async function expectedFromExecuta(
  executa: PluginTestClient,
  tool: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  try {
    const result = await executa.invoke(tool, args);
    if (result.success) {
      return {
        content: [{ type: "text", text: JSON.stringify(result.data) }],
        structuredContent: result.data,
      };
    }
    // An error result carries no structuredContent: clients check that against the outputSchema.
    return { content: [{ type: "text", text: result.error }], isError: true };
  } catch (error) {
    // Invalid arguments are an error frame in Executa and a tool error in MCP 2025-11-25.
    if (!(error instanceof RpcError) || error.code !== -32602) throw error;
    return {
      content: [
        { type: "text", text: error.message },
        { type: "text", text: JSON.stringify(error.data) },
      ],
      isError: true,
    };
  }
}

let executa: PluginTestClient;
let mcp: Awaited<ReturnType<typeof connectMcp>>;

beforeAll(async () => {
  for (const path of [binary, bundle]) {
    if (!existsSync(path))
      throw new Error(`${path} is missing: run \`pnpm --filter @executa-apps/toolbox build\``);
  }
  executa = await runBinary(binary, [], { localProviders: false });
  mcp = await connectMcp(binary, []);
  await mcp.client.listTools();
});
afterAll(async () => {
  await mcp?.client.close();
  await executa?.close();
});

describe("the toolbox binary as an MCP server (recognized from the first frame)", () => {
  it("names itself and logs the protocol it chose", () => {
    expect(mcp.client.getServerVersion()).toEqual({ name: "toolbox", version: "1.0.0", title: "Toolbox" });
    expect(mcp.stderr()).toMatch(/\[toolbox\] info: speaking MCP \(first frame initialize\)/);
  });

  it("lists the manifest's tools with their JSON Schema", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(executa.manifest?.tools.map((tool) => tool.name));
    expect(tools.find((tool) => tool.name === "hash_text")?.inputSchema).toEqual({
      type: "object",
      properties: {
        text: { type: "string", description: "The text to hash" },
        algorithm: {
          type: "string",
          description: "Hash algorithm: sha256 / md5 / sha1 / sha512 (default sha256)",
          default: "sha256",
          enum: ["sha256", "md5", "sha1", "sha512"],
        },
      },
      required: ["text"],
      additionalProperties: false,
    });
    expect(tools.find((tool) => tool.name === "batch_hash")?.inputSchema.properties?.texts).toEqual({
      type: "array",
      description: "List of texts to hash",
      items: { type: "string" },
    });
  });

  it("lists the result's JSON Schema of each tool whose return type is an object", async () => {
    const { tools } = await mcp.client.listTools();
    const outputSchema = (name: string) => tools.find((tool) => tool.name === name)?.outputSchema;
    expect(outputSchema("hash_text")).toEqual({
      type: "object",
      properties: {
        hash: { type: "string" },
        algorithm: { type: "string", enum: ["sha256", "md5", "sha1", "sha512"] },
        input_length: { type: "number" },
      },
      required: ["hash", "algorithm", "input_length"],
    });
    // A row's fields are `string | number`.
    const cell = { anyOf: [{ type: "string" }, { type: "number" }] };
    expect(outputSchema("generate_dataset")).toMatchObject({
      type: "object",
      properties: {
        dataset: {
          type: "array",
          items: { type: "object", properties: { id: cell, name: cell, score: cell } },
        },
      },
      required: ["rows", "columns", "estimated_bytes", "file_transport", "dataset"],
    });
    // `{ formatted, valid: true } | { error, valid: false }`: either object.
    expect(outputSchema("json_format")).toEqual({
      type: "object",
      anyOf: [
        {
          type: "object",
          properties: { formatted: { type: "string" }, valid: { type: "boolean", enum: [true] } },
          required: ["formatted", "valid"],
        },
        {
          type: "object",
          properties: { error: { type: "string" }, valid: { type: "boolean", enum: [false] } },
          required: ["error", "valid"],
        },
      ],
    });
  });

  // The SDK client checks each structuredContent against the tool's outputSchema (listed in
  // beforeAll): a result that did not match would fail the call.
  it.each(CALLS)("answers %s %j as the Executa side does", async (tool, args) => {
    const expected = await expectedFromExecuta(executa, tool, args);
    expect(await mcp.client.callTool({ name: tool, arguments: args })).toEqual(expected);
  });

  it("sends a large result inline: MCP clients read no file-transport pointers", async () => {
    const result = await mcp.client.callTool({ name: "generate_dataset", arguments: { rows: 20_000 } });
    const data = result.structuredContent as { rows: number; dataset: { id: number }[] };
    expect(data.rows).toBe(20_000);
    expect(data.dataset).toHaveLength(20_000);
  });

  it("answers an unknown tool with -32602", async () => {
    await expect(mcp.client.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });
});

describe("the toolbox forced to MCP with --mcp", () => {
  it.each([
    ["binary", binary, ["--mcp"]],
    ["bundle", process.execPath, [bundle, "--mcp"]],
  ])("serves the same tools (%s)", async (_kind, command, args) => {
    const forced = await connectMcp(command, args);
    try {
      const result = await forced.client.callTool({ name: "base64_encode", arguments: { text: "hello" } });
      expect(result.structuredContent).toEqual({ encoded: "aGVsbG8=", original_length: 5 });
      expect(forced.stderr()).toMatch(/speaking MCP \(forced by --mcp/);
    } finally {
      await forced.client.close();
    }
  });
});
