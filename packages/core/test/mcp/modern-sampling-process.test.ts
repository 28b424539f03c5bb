import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { describe, expect, it } from "vitest";

// Core's server in a child process (built dist) driven by the official v2 client in the
// 2026-07-28 era: a tool's sampling call travels in an input_required result and the
// client's retry (inputResponses + requestState), the only way this era has.
const FIXTURE = fileURLToPath(new URL("./fixtures/mcp-plugin.mjs", import.meta.url));

async function connect(withSampling: boolean): Promise<{ client: Client; asked: unknown[] }> {
  const asked: unknown[] = [];
  const client = new Client(
    { name: "core-modern-test", version: "1.0.0" },
    {
      capabilities: withSampling ? { sampling: {} } : {},
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    },
  );
  if (withSampling) {
    client.setRequestHandler("sampling/createMessage", (request) => {
      asked.push(request.params);
      return {
        role: "assistant",
        content: { type: "text", text: `hi (system: ${request.params.systemPrompt})` },
        model: "test-model",
        stopReason: "endTurn",
      };
    });
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIXTURE],
    env: { ...(process.env as Record<string, string>), MCP_FIXTURE_KEY: "k" },
    stderr: "ignore",
  });
  await client.connect(transport);
  return { client, asked };
}

describe("sampling in the 2026-07-28 era", () => {
  it("asks the client through input_required and resumes the tool with its answer", async () => {
    const { client, asked } = await connect(true);
    try {
      expect(client.getProtocolEra()).toBe("modern");
      const result = await client.callTool({ name: "ask_model", arguments: {} });
      expect(result.structuredContent).toEqual({ reply: "hi (system: Be brief.)", model: "test-model" });
      expect(asked).toEqual([
        expect.objectContaining({
          messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
          maxTokens: 20,
        }),
      ]);
      // The session goes on: a plain call after the rounds.
      const echo = await client.callTool({ name: "echo", arguments: { text: "x" } });
      expect(echo.structuredContent).toEqual({ text: "x", mode: "plain" });
    } finally {
      await client.close();
    }
  }, 30_000);

  it("refuses a requestState that names no call in progress", async () => {
    const { client } = await connect(true);
    try {
      await expect(
        client.callTool({ name: "ask_model", arguments: {}, requestState: "nope" } as never),
      ).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  }, 30_000);

  it("fails the tool's sampling as not negotiated, as a result the model reads, when the client declared no sampling", async () => {
    const { client } = await connect(false);
    try {
      const result = await client.callTool({ name: "ask_model", arguments: {} });
      expect(result.isError).toBe(true);
      expect(result.content[0]).toMatchObject({
        type: "text",
        text: expect.stringMatching(/the MCP client did not declare the sampling capability\. Fix: /),
      });
      expect(JSON.parse((result.content[1] as { text: string }).text)).toMatchObject({ code: -32008 });
    } finally {
      await client.close();
    }
  }, 30_000);
});
