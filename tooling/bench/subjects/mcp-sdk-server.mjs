// The reference of the bench's MCP figures: the toolbox's base64_encode on the official MCP
// TypeScript SDK server (McpServer + StdioServerTransport, zod input schema), answering as the
// toolbox does under MCP (the result as structuredContent and as JSON text).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "toolbox-sdk", version: "1.0.0" });

server.registerTool(
  "base64_encode",
  { description: "Base64 encode text", inputSchema: { text: z.string().describe("The text to encode") } },
  ({ text }) => {
    const data = { encoded: Buffer.from(text, "utf8").toString("base64"), original_length: text.length };
    return { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data };
  },
);

await server.connect(new StdioServerTransport());
