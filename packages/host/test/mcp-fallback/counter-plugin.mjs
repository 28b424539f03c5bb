// A plugin on core served over MCP with the built host package's local fallback, whose
// storage goes where the environment says (EXECUTA_MCP_DATABASE_URL): a counter that
// several replicas increment with conditional writes, retrying each lost race at once.
import { servePlugin } from "@executa/core";
import { mcpLocalFallback } from "../../dist/local/index.js";

servePlugin({
  manifest: {
    name: "counter-fixture",
    version: "0.1.0",
    description: "Fixture plugin: a shared counter on the fallback's storage.",
    host_capabilities: ["aps.kv"],
    tools: [
      { name: "reset", description: "Set the counter to 0.", parameters: [{ name: "key", type: "string" }] },
      {
        name: "increment",
        description: "Add 1 to the counter `times` times, each a read then a write over the etag read.",
        parameters: [
          { name: "key", type: "string" },
          { name: "times", type: "integer" },
        ],
      },
      { name: "read", description: "The counter.", parameters: [{ name: "key", type: "string" }] },
    ],
  },
  options: { mcp: { fallback: mcpLocalFallback() } },
  handlers: {
    reset: async ({ key }, ctx) => {
      await ctx.host.storage.set(key, 0);
      return { value: 0 };
    },
    increment: async ({ key, times }, ctx) => {
      let conflicts = 0;
      for (let done = 0; done < times; ) {
        const entry = await ctx.host.storage.get(key);
        try {
          await ctx.host.storage.set(key, entry.value + 1, { ifMatch: entry.etag });
          done++;
        } catch (error) {
          if (!error.isPreconditionFailed?.()) throw error;
          conflicts++;
        }
      }
      return { conflicts };
    },
    read: async ({ key }, ctx) => ({ value: (await ctx.host.storage.get(key)).value }),
  },
});
