import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CreateMessageRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The tool's own failures reach the model as isError results naming the MCP-side cause
// and fix; failures of the request stay JSON-RPC errors. Core's server (built dist) in a
// child process, driven by the official MCP SDK client.
const FIXTURE = fileURLToPath(new URL("./fixtures/failing-plugin.mjs", import.meta.url));

type Sampler = (prompt: string) => string;

async function connect(sampler?: Sampler): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: "pipe" });
  const client = new Client(
    { name: "failures-test", version: "1.0.0" },
    { capabilities: sampler ? { sampling: {} } : {} },
  );
  if (sampler) {
    client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
      role: "assistant",
      content: { type: "text", text: sampler(request.params.systemPrompt ?? "") },
      model: "test-model",
    }));
  }
  await client.connect(transport);
  return client;
}

/** The texts of an isError result: its message, then its details as JSON when it has some. */
function failure(result: Awaited<ReturnType<Client["callTool"]>>): { text: string; detail: unknown } {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const [first, second] = result.content as { type: string; text: string }[];
  expect(first?.text).not.toMatch(/Executa protocol/);
  return { text: first?.text ?? "", detail: second === undefined ? undefined : JSON.parse(second.text) };
}

describe("under a client that declared no sampling, a tool's failures are results the model reads", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client?.close());

  it("storage without a fallback: -32021, naming mcpLocalFallback() as the fix", async () => {
    const { text, detail } = failure(await client.callTool({ name: "store", arguments: {} }));
    expect(text).toMatch(/^storage\/set is unavailable when serving MCP: MCP clients provide no storage/);
    expect(text).toContain("{ mcp: { fallback: mcpLocalFallback() } }");
    expect(detail).toMatchObject({ code: -32021, data: { reason: "not_negotiated", protocol: "mcp" } });
  });

  it("sampling the client did not declare: -32008, naming the client capability", async () => {
    const { text, detail } = failure(await client.callTool({ name: "ask", arguments: {} }));
    expect(text).toMatch(
      /the MCP client did not declare the sampling capability\. Fix: .*capabilities\.sampling/,
    );
    expect(detail).toMatchObject({ code: -32008 });
  });

  it("an unexpected exception: its message", async () => {
    const { text } = failure(await client.callTool({ name: "crash", arguments: {} }));
    expect(text).toBe('Tool "crash" failed: cannot read the config');
  });

  it("keeps an unknown tool a JSON-RPC error (-32602), and keeps serving", async () => {
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toSatisfy(
      (error) => error instanceof McpError && error.code === -32602,
    );
    await expect(client.ping()).resolves.toEqual({});
  });
});

describe("under a client that samples, the model's and the client's failures are results too", () => {
  it("a structured answer the model got wrong: -32003, saying MCP asks by instruction only", async () => {
    const client = await connect(() => "Water is wet, I think.");
    try {
      const { text, detail } = failure(await client.callTool({ name: "judge", arguments: {} }));
      expect(text).toMatch(/^sampling\.createObject: the model's answer is not JSON/);
      expect(text).toMatch(/Under MCP the client's model is asked for JSON by instruction only/);
      expect(detail).toMatchObject({ code: -32003, data: { reason: "invalid_structured_output" } });
    } finally {
      await client.close();
    }
  });

  it("the client refusing a sampling request: its error, with its code", async () => {
    const client = await connect(() => {
      throw new McpError(-1, "User rejected sampling request");
    });
    try {
      const { text, detail } = failure(await client.callTool({ name: "ask", arguments: {} }));
      expect(text).toMatch(/User rejected sampling request/);
      expect(detail).toMatchObject({ code: -1 });
    } finally {
      await client.close();
    }
  });
});
