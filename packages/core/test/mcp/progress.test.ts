import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log/logger.js";
import { reportProgress } from "../../src/mcp/progress.js";
import { createPluginServer } from "../../src/server/create-server.js";
import { memoryPipe } from "../helpers/memory-pipe.js";

function serve() {
  const pipe = memoryPipe();
  createPluginServer(
    {
      manifest: {
        name: "progress",
        version: "1.0.0",
        description: "reports progress",
        tools: [{ name: "count", description: "Count to three", parameters: [] }],
      },
      handlers: {
        count: async (_args, ctx) => {
          const sent = [
            reportProgress(ctx, { progress: 1, total: 3, message: "one" }),
            reportProgress(ctx, { progress: 1, total: 3 }),
            reportProgress(ctx, { progress: 3, total: 3, message: "three" }),
          ];
          return { sent };
        },
      },
    },
    { input: pipe.input, output: pipe.output, log: createLogger("progress", { write: () => {} }) },
  );
  return pipe;
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

describe("reportProgress", () => {
  it("sends notifications/progress for an MCP call with a progressToken, dropping values that do not grow", async () => {
    const { send, reply, frames } = serve();
    send(initialize("2025-06-18"));
    await reply(0);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "count", _meta: { progressToken: "p1" } },
    });
    expect((await reply(1)).result).toMatchObject({ structuredContent: { sent: [true, false, true] } });
    expect(frames.filter((frame) => frame.method === "notifications/progress")).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "p1", progress: 1, total: 3, message: "one" },
      },
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "p1", progress: 3, total: 3, message: "three" },
      },
    ]);
  });

  it("leaves out message under 2024-11-05, which has none", async () => {
    const { send, reply, frames } = serve();
    send(initialize("2024-11-05"));
    await reply(0);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "count", _meta: { progressToken: 7 } },
    });
    await reply(1);
    const progress = frames.filter((frame) => frame.method === "notifications/progress");
    expect(progress.map((frame) => frame.params)).toEqual([
      { progressToken: 7, progress: 1, total: 3 },
      { progressToken: 7, progress: 3, total: 3 },
    ]);
  });

  it("sends nothing without a progressToken, nor under Executa", async () => {
    const mcp = serve();
    mcp.send(initialize("2025-11-25"));
    mcp.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "count" } });
    expect((await mcp.reply(1)).result).toMatchObject({ structuredContent: { sent: [false, false, false] } });
    const executa = serve();
    executa.send({ jsonrpc: "2.0", id: 1, method: "invoke", params: { tool: "count" } });
    expect((await executa.reply(1)).result).toMatchObject({ data: { sent: [false, false, false] } });
    expect([...mcp.frames, ...executa.frames].some((frame) => frame.method !== undefined)).toBe(false);
  });
});
