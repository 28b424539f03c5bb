import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CreateMessageRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnFixture } from "../helpers/spawn-fixture.js";

// Core's server in a child process (built dist), driven by the official MCP SDK client.
const FIXTURE = fileURLToPath(new URL("./fixtures/mcp-plugin.mjs", import.meta.url));

interface Connected {
  client: Client;
  stderr: () => string;
  /** Resolves with the stderr text once it matches `pattern`. */
  stderrMatching: (pattern: RegExp) => Promise<string>;
  close: () => Promise<void>;
}

async function connect(args: string[] = [], env: Record<string, string> = {}): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIXTURE, ...args],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  let stderr = "";
  const waiters = new Set<() => void>();
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
    for (const check of [...waiters]) check();
  });
  const stderrMatching = (pattern: RegExp) =>
    new Promise<string>((resolve) => {
      const check = () => {
        if (!pattern.test(stderr)) return;
        waiters.delete(check);
        resolve(stderr);
      };
      waiters.add(check);
      check();
    });
  const client = new Client({ name: "core-mcp-test", version: "1.0.0" }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
    role: "assistant",
    content: { type: "text", text: `hi (system: ${request.params.systemPrompt})` },
    model: "test-model",
    stopReason: "endTurn",
  }));
  await client.connect(transport);
  return { client, stderr: () => stderr, stderrMatching, close: () => client.close() };
}

describe("a core plugin recognized as an MCP server from the client's first frame", () => {
  let mcp: Connected;
  beforeAll(async () => {
    mcp = await connect([], { MCP_FIXTURE_KEY: "from-env" });
  });
  afterAll(() => mcp?.close());

  it("negotiates the client's revision, names itself and logs the choice", async () => {
    expect(mcp.client.getServerVersion()).toEqual({
      name: "mcp-fixture",
      version: "1.2.3",
      title: "MCP fixture",
    });
    expect(mcp.client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    await mcp.client.ping();
    expect(mcp.stderr()).toMatch(/speaking MCP \(first frame initialize\)/);
  });

  it("lists the tools with JSON Schema generated from the manifest", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("slow");
    expect(tools.find((tool) => tool.name === "echo")).toEqual({
      name: "echo",
      description: "Echo the text.",
      inputSchema: {
        type: "object",
        properties: {
          text: { type: "string", description: "What to echo" },
          times: { type: "integer", default: 1, minimum: 1 },
          mode: { type: "string", enum: ["plain", "loud"] },
          tags: { type: "array", items: { type: "string" } },
        },
        required: ["text"],
      },
    });
  });

  it("answers a call with structuredContent and the same JSON as text", async () => {
    const result = await mcp.client.callTool({ name: "echo", arguments: { text: "ab", times: 2 } });
    expect(result).toEqual({
      content: [{ type: "text", text: '{"text":"abab","mode":"plain"}' }],
      structuredContent: { text: "abab", mode: "plain" },
    });
  });

  it("maps display blocks to text content and keeps them out of the data", async () => {
    const result = await mcp.client.callTool({ name: "shown", arguments: {} });
    expect(result.content).toEqual([
      { type: "text", text: '{"count":3}' },
      { type: "text", text: "**three**" },
    ]);
    expect(result.structuredContent).toEqual({ count: 3 });
  });

  it("answers a ToolError as isError with its message and data as text, without structuredContent", async () => {
    const result = await mcp.client.callTool({ name: "fail", arguments: {} });
    expect(result).toEqual({
      content: [
        { type: "text", text: "expected failure" },
        { type: "text", text: '{"hint":"retry"}' },
      ],
      isError: true,
    });
  });

  it("answers invalid arguments as a tool error under 2025-11-25, the issues as text", async () => {
    const result = await mcp.client.callTool({ name: "strict", arguments: {} });
    expect(result).toEqual({
      content: [
        { type: "text", text: "text is required" },
        { type: "text", text: '{"issues":[{"path":"text","message":"required"}]}' },
      ],
      isError: true,
    });
  });

  it("answers an unknown tool with -32602", async () => {
    const unknown = mcp.client.callTool({ name: "nope", arguments: {} });
    await expect(unknown).rejects.toBeInstanceOf(McpError);
    await expect(unknown).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Unknown tool/),
    });
  });

  it("aborts ctx.signal when the client cancels a call, never answers it, and keeps serving", async () => {
    const controller = new AbortController();
    const call = mcp.client.callTool({ name: "slow", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await mcp.stderrMatching(/slow started/);
    controller.abort("user pressed stop");
    await expect(call).rejects.toThrow();
    await mcp.stderrMatching(/slow aborted: cancelled by the MCP client: .*user pressed stop/);
    expect(await mcp.client.callTool({ name: "aborted", arguments: {} })).toMatchObject({
      structuredContent: { aborted: 1 },
    });
    expect(mcp.stderr()).not.toMatch(/unknown id/);
  });

  it("maps sampling to the client's sampling/createMessage and refuses storage as not negotiated", async () => {
    expect((await mcp.client.callTool({ name: "ask_model", arguments: {} })).structuredContent).toEqual({
      reply: "hi (system: Be brief.)",
      model: "test-model",
    });
    expect((await mcp.client.callTool({ name: "remember", arguments: {} })).structuredContent).toEqual({
      stored: false,
      code: -32021,
      notNegotiated: true,
    });
  });

  it("keeps stdout for frames: a tool's console.log goes to stderr", async () => {
    expect((await mcp.client.callTool({ name: "noisy", arguments: {} })).structuredContent).toEqual({
      noisy: true,
    });
    await mcp.stderrMatching(/noise from console\.log/);
  });

  it("reads credentials from the environment the MCP client sets", async () => {
    expect((await mcp.client.callTool({ name: "secret", arguments: {} })).structuredContent).toEqual({
      key: "from-env",
    });
  });
});

describe("MCP forced by --mcp or EXECUTA_PROTOCOL=mcp", () => {
  it.each([
    [["--mcp"], {}],
    [[], { EXECUTA_PROTOCOL: "mcp" }],
  ])("serves MCP with %j %j and says why", async (args, env) => {
    const mcp = await connect(args, env);
    try {
      expect(
        (await mcp.client.callTool({ name: "echo", arguments: { text: "x" } })).structuredContent,
      ).toEqual({
        text: "x",
        mode: "plain",
      });
      expect(mcp.stderr()).toMatch(/speaking MCP \(forced by --mcp \/ EXECUTA_PROTOCOL\)/);
    } finally {
      await mcp.close();
    }
  });
});

/** Resolves once `ready()` holds, checked whenever the plugin writes to stderr. */
function waitFor(ready: () => boolean, plugin: ReturnType<typeof spawnFixture>): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!ready()) return;
      plugin.child.stderr.off("data", check);
      resolve();
    };
    plugin.child.stderr.on("data", check);
    check();
  });
}

describe("older MCP revisions and lifecycle over raw frames", () => {
  it("speaks 2025-03-26: no structuredContent or title, invalid arguments as -32602", async () => {
    const plugin = spawnFixture({}, FIXTURE);
    try {
      const init = await plugin.call("initialize", {
        protocolVersion: "2025-03-26",
        capabilities: {},
        clientInfo: { name: "raw", version: "0" },
      });
      expect(init.result).toEqual({
        protocolVersion: "2025-03-26",
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: "mcp-fixture", version: "1.2.3" },
      });
      plugin.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      const echo = await plugin.call("tools/call", { name: "echo", arguments: { text: "a" } });
      expect(echo.result).toEqual({ content: [{ type: "text", text: '{"text":"a","mode":"plain"}' }] });
      const strict = await plugin.call("tools/call", { name: "strict", arguments: {} });
      expect(strict.error).toMatchObject({ code: -32602, message: "text is required" });
      const malformed = await plugin.call("tools/call", { name: "echo", arguments: [1] });
      expect(malformed.error).toMatchObject({
        code: -32602,
        message: "tools/call `arguments` must be an object",
      });
      const nameless = await plugin.call("tools/call", { tool: "echo" });
      expect(nameless.error).toMatchObject({ code: -32602 });
      const described = await plugin.call("describe");
      expect(described.error).toMatchObject({ code: -32601 });
    } finally {
      plugin.child.stdin.end();
      await plugin.exited;
    }
  });

  it("stops on SIGTERM as on the Executa side: a running call is answered -32099 after the grace, exit 0", async () => {
    const plugin = spawnFixture({}, FIXTURE);
    try {
      await plugin.call("initialize", { protocolVersion: "2025-06-18", capabilities: {} });
      plugin.send({
        jsonrpc: "2.0",
        id: "slow",
        method: "tools/call",
        params: { name: "slow", arguments: {} },
      });
      await waitFor(() => plugin.stderr().includes("slow started"), plugin);
      plugin.child.kill("SIGTERM");
      expect((await plugin.reply("slow")).error).toMatchObject({ code: -32099 });
      expect(await plugin.exited).toEqual({ code: 0, signal: null });
    } finally {
      plugin.child.kill("SIGKILL");
    }
  });

  it("refuses a notification sent with an id (-32600, not acted on) and a second initialize, keeping the session", async () => {
    const plugin = spawnFixture({}, FIXTURE);
    try {
      await plugin.call("initialize", { protocolVersion: "2025-03-26", capabilities: {} });
      const initialized = await plugin.call("notifications/initialized");
      expect(initialized.error).toMatchObject({
        code: -32600,
        message: expect.stringMatching(
          /^notifications\/initialized is a notification: MCP notifications carry no id/,
        ),
      });
      expect(initialized.result).toBeUndefined();
      plugin.send({
        jsonrpc: "2.0",
        id: "slow",
        method: "tools/call",
        params: { name: "slow", arguments: {} },
      });
      await waitFor(() => plugin.stderr().includes("slow started"), plugin);
      const cancel = await plugin.call("notifications/cancelled", { requestId: "slow" });
      expect(cancel.error).toMatchObject({ code: -32600 });
      const again = await plugin.call("initialize", { protocolVersion: "2025-11-25", capabilities: {} });
      expect(again.error).toMatchObject({
        code: -32600,
        message: expect.stringMatching(/^initialize was already answered on this connection/),
      });
      const echo = await plugin.call("tools/call", { name: "echo", arguments: { text: "a" } });
      expect(echo.result).toEqual({ content: [{ type: "text", text: '{"text":"a","mode":"plain"}' }] });
      expect((await plugin.call("tools/call", { name: "aborted", arguments: {} })).result).toEqual({
        content: [{ type: "text", text: '{"aborted":0}' }],
      });
    } finally {
      plugin.child.kill("SIGKILL");
      await plugin.exited;
    }
  });

  it("answers an unsupported revision with its newest one", async () => {
    const plugin = spawnFixture({}, FIXTURE);
    try {
      const init = await plugin.call("initialize", { protocolVersion: "2099-01-01", capabilities: {} });
      expect(init.result).toMatchObject({ protocolVersion: "2025-11-25" });
    } finally {
      plugin.child.stdin.end();
      await plugin.exited;
    }
  });
});
