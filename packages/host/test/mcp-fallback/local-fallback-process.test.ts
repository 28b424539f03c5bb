import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MCP_DATA_DIR_ENV, mcpDataDir } from "../../src/local/mcp-fallback/data-dir.js";
import { tempDir } from "../helpers/calls.js";

// The built host package's local fallback inside a real plugin process served over MCP,
// driven by the official MCP SDK client.
const PLUGIN = fileURLToPath(new URL("./local-fallback-plugin.mjs", import.meta.url));

interface Running {
  call(name: string, args?: Record<string, unknown>): Promise<unknown>;
  /** Closes the client and resolves once the plugin process has exited. */
  stop(): Promise<void>;
}

async function run(env: Record<string, string>): Promise<Running> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [PLUGIN, "--mcp"],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  const ended = new Promise<void>((resolve) => transport.stderr?.on("end", () => resolve()));
  transport.stderr?.on("data", () => {});
  const client = new Client({ name: "fallback-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })).structuredContent,
    stop: async () => {
      await client.close();
      await ended;
    },
  };
}

describe("mcpLocalFallback in a plugin served over MCP", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir("executa-mcp-fallback-");
  });
  afterEach(() => dir.remove());

  it("stores keys and files in the data folder and reads them back in a later process", async () => {
    const data = join(dir.path, "notes");
    const first = await run({ [MCP_DATA_DIR_ENV]: data });
    try {
      expect(await first.call("write", { key: "todo", text: "buy milk" })).toMatchObject({
        etag: expect.any(String),
        size: 8,
      });
      expect(await first.call("read", { key: "todo" })).toEqual({
        exists: true,
        value: { text: "buy milk" },
        file: "buy milk",
      });
    } finally {
      await first.stop();
    }
    expect(existsSync(join(data, "storage.db"))).toBe(true);

    const second = await run({ [MCP_DATA_DIR_ENV]: data });
    try {
      expect(await second.call("read", { key: "todo" })).toEqual({
        exists: true,
        value: { text: "buy milk" },
        file: "buy milk",
      });
      expect(await second.call("read", { key: "other" })).toEqual({ exists: false });
    } finally {
      await second.stop();
    }
  });

  it("keeps the families it does not cover refused as not negotiated", async () => {
    const plugin = await run({ [MCP_DATA_DIR_ENV]: dir.path });
    try {
      expect(await plugin.call("ask")).toEqual({ code: -32008, notNegotiated: true });
    } finally {
      await plugin.stop();
    }
  });

  it("defaults to a folder of the plugin's own under ~/.executa/mcp", async () => {
    const plugin = await run({ HOME: dir.path, [MCP_DATA_DIR_ENV]: "" });
    try {
      await plugin.call("write", { key: "k", text: "v" });
    } finally {
      await plugin.stop();
    }
    expect(existsSync(join(dir.path, ".executa", "mcp", "notes-fixture", "storage.db"))).toBe(true);
    expect(mcpDataDir("notes-fixture", {}, "/home/ada")).toBe("/home/ada/.executa/mcp/notes-fixture");
    expect(mcpDataDir("notes-fixture", { [MCP_DATA_DIR_ENV]: "/srv/notes" }, "/home/ada")).toBe("/srv/notes");
  });
});
