import type { PluginDefinition } from "@executa/core";
import { serveInMemory } from "./serve-in-memory.js";

/** A tool as MCP's `tools/list` lists it, typed for the tests to read its schemas. */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: {
    type: "object";
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
    additionalProperties?: unknown;
    $defs?: Record<string, unknown>;
  };
  outputSchema?: Record<string, unknown>;
}

/** The revision the client asks for: the first with `outputSchema` on listed tools. */
const CLIENT_PROTOCOL_VERSION = "2025-06-18";

/**
 * One tool as an MCP client sees it: the definition served over MCP in this process, the
 * client's `initialize`, then `tools/list`. Fails when the list has no tool of that name.
 */
export async function mcpTool(definition: PluginDefinition, name: string): Promise<ListedTool> {
  const server = serveInMemory(definition, "mcp");
  try {
    await server.request("initialize", {
      protocolVersion: CLIENT_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "decorators-test", version: "1.0.0" },
    });
    const listed = await server.request("tools/list");
    if (listed.error) throw new Error(`tools/list failed: ${listed.error.message}`);
    const { tools } = listed.result as { tools: ListedTool[] };
    const tool = tools.find((entry) => entry.name === name);
    if (!tool)
      throw new Error(`tools/list has no ${name}, only ${tools.map((entry) => entry.name).join(", ")}`);
    return tool;
  } finally {
    server.end();
  }
}
