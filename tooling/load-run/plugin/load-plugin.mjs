// The plugin the load run serves: written on core's built dist, its storage kept by
// mcpLocalFallback() (a SQLite file under EXECUTA_MCP_DATA_DIR, or whatever store the
// environment configures), so that writes acknowledged by one replica can be read back
// through the others.
import { servePlugin } from "@executa/core";
import { mcpLocalFallback } from "@executa/host/local";

servePlugin({
  manifest: {
    name: "load-run",
    version: "1.0.0",
    description: "The plugin of the load run: a cheap call, a storage write and a read-back.",
    host_capabilities: ["aps.kv"],
    tools: [
      { name: "ping", description: "Answers at once.", parameters: [] },
      {
        name: "put",
        description: "Stores value under key.",
        parameters: [
          { name: "key", type: "string", description: "The key" },
          { name: "value", type: "string", description: "The value" },
        ],
      },
      {
        name: "missing",
        description: "Which of the keys (a JSON array of strings) have no value.",
        parameters: [{ name: "keys_json", type: "string", description: "The keys, as JSON" }],
      },
    ],
  },
  options: { mcp: { fallback: mcpLocalFallback({ families: ["storage"] }) } },
  handlers: {
    ping: () => ({ ok: true }),
    put: async ({ key, value }, ctx) => {
      await ctx.host.storage.set(key, value);
      return { key };
    },
    missing: async ({ keys_json }, ctx) => {
      const missing = [];
      for (const key of JSON.parse(keys_json)) {
        if (!(await ctx.host.storage.get(key)).exists) missing.push(key);
      }
      return { missing };
    },
  },
});
