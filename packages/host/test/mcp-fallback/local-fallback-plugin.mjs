// A plugin written on core and served over MCP with the local fallback of the built host
// package: storage and files go to SQLite and blobs in its data folder, sampling is refused.
import { servePlugin } from "@executa/core";
import { mcpLocalFallback } from "../../dist/local/index.js";

const failure = (error) => ({ code: error.code, message: error.message });

servePlugin({
  manifest: {
    name: "notes-fixture",
    version: "0.1.0",
    description: "Fixture plugin for the local MCP fallback.",
    host_capabilities: ["aps.kv", "aps.files", "llm.sample"],
    tools: [
      {
        name: "write",
        description: "Store a note under a key and as a file.",
        parameters: [
          { name: "key", type: "string" },
          { name: "text", type: "string" },
        ],
      },
      { name: "read", description: "Read a note back.", parameters: [{ name: "key", type: "string" }] },
      { name: "ask", description: "Sample a model (not covered by the fallback).", parameters: [] },
    ],
  },
  options: { mcp: { fallback: mcpLocalFallback() } },
  handlers: {
    write: async ({ key, text }, ctx) => {
      try {
        const stored = await ctx.host.storage.set(key, { text });
        const file = await ctx.host.files.upload(`notes/${key}.txt`, text, { contentType: "text/plain" });
        return { etag: stored.etag, size: file.sizeBytes };
      } catch (error) {
        return failure(error);
      }
    },
    read: async ({ key }, ctx) => {
      try {
        const entry = await ctx.host.storage.get(key);
        if (!entry.exists) return { exists: false };
        const link = await ctx.host.files.downloadUrl(`notes/${key}.txt`);
        const file = await (await fetch(link.url)).text();
        return { exists: true, value: entry.value, file };
      } catch (error) {
        return failure(error);
      }
    },
    ask: async (_args, ctx) => {
      try {
        await ctx.host.sampling.createMessage({ messages: [{ role: "user", content: "hi" }], maxTokens: 5 });
        return { asked: true };
      } catch (error) {
        return { code: error.code, notNegotiated: error.isNotNegotiated() };
      }
    },
  },
});
