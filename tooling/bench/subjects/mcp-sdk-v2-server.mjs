// The reference of the bench's MCP figures: the toolbox's base64_encode on the official MCP
// TypeScript SDK v2 server (`McpServer` of @modelcontextprotocol/server, zod input schema),
// answering as the toolbox does under MCP (the result as structuredContent and as JSON text).
// Over stdio by default, through `serveStdio` (the opening frame picks the era: 2026-07-28 or
// 2025-era); with `--http`, over Streamable HTTP through
// `createMcpHandler` (2026-07-28 requests, and 2025-era ones by its stateless fallback) on
// node:http via `toNodeHandler` of @modelcontextprotocol/node, on 127.0.0.1 at a free port,
// printing `listening on http://127.0.0.1:PORT/mcp` on stderr as the toolbox does.
import { createServer } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

function toolboxServer() {
  const server = new McpServer({ name: "toolbox-sdk-v2", version: "1.0.0" });
  server.registerTool(
    "base64_encode",
    {
      description: "Base64 encode text",
      inputSchema: z.object({ text: z.string().describe("The text to encode") }),
    },
    ({ text }) => {
      const data = { encoded: Buffer.from(text, "utf8").toString("base64"), original_length: text.length };
      return { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data };
    },
  );
  return server;
}

if (process.argv.includes("--http")) {
  const handler = createMcpHandler(toolboxServer);
  const http = createServer(toNodeHandler(handler));
  http.listen(0, "127.0.0.1", () => {
    process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`);
  });
  process.on("SIGTERM", () => http.close(() => process.exit(0)));
} else {
  serveStdio(toolboxServer);
}
