import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Core's server (built dist) in a child process with a fake MCP fallback for storage only,
// driven by the official MCP SDK client.
const FIXTURE = fileURLToPath(new URL("./fixtures/fallback-plugin.mjs", import.meta.url));

function structured(result: Awaited<ReturnType<Client["callTool"]>>): unknown {
  return result.structuredContent;
}

describe("a plugin served over MCP with a fallback for the families MCP lacks", () => {
  let client: Client;
  let stderr = "";
  let exited: Promise<void>;
  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [FIXTURE, "--mcp"],
      stderr: "pipe",
    });
    exited = new Promise((resolve) => transport.stderr?.on("end", () => resolve()));
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    client = new Client({ name: "fallback-test", version: "1.0.0" });
    await client.connect(transport);
  });
  afterAll(() => client?.close());

  it("announces the families its fallback answers as an experimental capability", () => {
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: false },
      experimental: { "io.executa/fallback": { families: ["storage"] } },
    });
  });

  it("answers storage calls from the fallback, with the plugin's name and the call's invoke id", async () => {
    expect(structured(await client.callTool({ name: "keep", arguments: { key: "a", value: "1" } }))).toEqual({
      read: "1",
    });
    const { seen } = structured(await client.callTool({ name: "seen", arguments: {} })) as {
      seen: { method: string; pluginName: string; invokeId: string; timed: boolean; signal: boolean }[];
    };
    expect(seen.map((call) => call.method)).toEqual(["storage/set", "storage/get"]);
    for (const call of seen.slice(0, 2)) {
      expect(call).toMatchObject({ pluginName: "fallback-fixture", timed: true, signal: true });
      expect(call.invokeId).toMatch(/^mcp-/);
    }
    expect(seen[0]?.invokeId).toBe(seen[1]?.invokeId);
  });

  it("passes the fallback's errors to the tool with their code", async () => {
    expect(
      structured(await client.callTool({ name: "keep", arguments: { key: "forbidden", value: "1" } })),
    ).toEqual({ code: -32024, message: "fake quota" });
  });

  it("bounds a fallback that never answers by the call's timeout", async () => {
    expect(structured(await client.callTool({ name: "wait_on_hang", arguments: {} }))).toEqual({
      code: -32030,
    });
  });

  it("still refuses the families the fallback does not cover as not negotiated", async () => {
    expect(structured(await client.callTool({ name: "list_files", arguments: {} }))).toEqual({
      code: -32021,
      notNegotiated: true,
    });
  });

  it("closes the fallback when the server stops", async () => {
    await client.close();
    await exited;
    expect(stderr).toMatch(/fake fallback closed/);
  });
});
