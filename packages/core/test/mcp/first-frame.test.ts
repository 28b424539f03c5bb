import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log/logger.js";
import { detectDialect, protocolFromEnvironment } from "../../src/mcp/protocol-choice.js";
import { negotiateMcpVersion } from "../../src/mcp/versions.js";
import { createPluginServer, type ServeOptions } from "../../src/server/create-server.js";
import type { PluginDefinition } from "../../src/server/definition.js";
import { memoryPipe } from "../helpers/memory-pipe.js";

const MCP_INITIALIZE = {
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } },
};

describe("detectDialect", () => {
  it("recognizes MCP by a date-shaped protocolVersion on initialize", () => {
    expect(detectDialect(MCP_INITIALIZE)).toBe("mcp");
    expect(detectDialect({ method: "initialize", params: { protocolVersion: "2024-11-05" } })).toBe("mcp");
  });

  it("takes any other initialize for an Executa v2 host", () => {
    expect(detectDialect({ method: "initialize", params: { protocolVersion: "2.0" } })).toBe("executa-v2");
    expect(detectDialect({ method: "initialize", params: { protocolVersion: "1.1" } })).toBe("executa-v2");
    expect(detectDialect({ method: "initialize", params: {} })).toBe("executa-v2");
    expect(detectDialect({ method: "initialize", params: undefined })).toBe("executa-v2");
    expect(detectDialect({ method: "initialize", params: { protocolVersion: "2025-6-18" } })).toBe(
      "executa-v2",
    );
  });

  it("takes a first describe, invoke or health for an Executa v1 host", () => {
    for (const method of ["describe", "invoke", "health", "tools/list"]) {
      expect(detectDialect({ method, params: undefined })).toBe("executa-v1");
    }
  });
});

describe("protocolFromEnvironment", () => {
  it("forces MCP with --mcp or EXECUTA_PROTOCOL=mcp, Executa with EXECUTA_PROTOCOL=executa", () => {
    expect(protocolFromEnvironment(["node", "plugin.js", "--mcp"], {})).toBe("mcp");
    expect(protocolFromEnvironment(["node", "plugin.js"], { EXECUTA_PROTOCOL: "MCP" })).toBe("mcp");
    expect(protocolFromEnvironment(["node", "plugin.js"], { EXECUTA_PROTOCOL: "executa" })).toBe("executa");
    expect(protocolFromEnvironment(["node", "plugin.js"], {})).toBe("auto");
    // The executable itself is never taken for the flag.
    expect(protocolFromEnvironment(["--mcp"], {})).toBe("auto");
  });
});

describe("negotiateMcpVersion", () => {
  it("answers a revision it speaks with that revision, anything else with the newest", () => {
    for (const version of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]) {
      expect(negotiateMcpVersion(version)).toBe(version);
    }
    expect(negotiateMcpVersion("2024-10-07")).toBe("2025-11-25");
    expect(negotiateMcpVersion(undefined)).toBe("2025-11-25");
  });
});

const definition: PluginDefinition = {
  manifest: {
    name: "mem",
    version: "0.1.0",
    description: "in-memory",
    tools: [{ name: "hello", description: "Say hello", parameters: [] }],
  },
  handlers: { hello: () => ({ hello: "world" }) },
};

function serve(protocol?: ServeOptions["protocol"]) {
  const pipe = memoryPipe();
  const logs: string[] = [];
  createPluginServer(definition, {
    input: pipe.input,
    output: pipe.output,
    log: createLogger("mem", { level: "debug", write: (line) => logs.push(line) }),
    protocol,
  });
  return { ...pipe, logs };
}

describe("the protocol a server speaks, chosen at the first frame", () => {
  it("answers an MCP client in MCP from then on", async () => {
    const { send, reply, logs } = serve();
    send({ jsonrpc: "2.0", id: 1, ...MCP_INITIALIZE });
    expect((await reply(1)).result).toMatchObject({ protocolVersion: "2025-06-18" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "hello" } });
    expect((await reply(2)).result).toEqual({
      content: [{ type: "text", text: '{"hello":"world"}' }],
      structuredContent: { hello: "world" },
    });
    send({ jsonrpc: "2.0", id: 3, method: "invoke", params: { tool: "hello" } });
    expect((await reply(3)).error).toMatchObject({ code: -32601 });
    expect(logs.filter((line) => line.includes("speaking"))).toEqual([
      "[mem] info: speaking MCP (first frame initialize)\n",
    ]);
  });

  it.each([
    ["v2", { method: "initialize", params: { protocolVersion: "2.0" } }],
    ["v1", { method: "describe" }],
  ])("answers an Executa %s host in Executa, MCP methods unknown", async (_name, first) => {
    const { send, reply, logs } = serve();
    send({ jsonrpc: "2.0", id: 1, ...first });
    expect((await reply(1)).result).toBeDefined();
    send({ jsonrpc: "2.0", id: 2, method: "invoke", params: { tool: "hello" } });
    expect((await reply(2)).result).toMatchObject({ success: true, data: { hello: "world" } });
    send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    expect((await reply(3)).error).toMatchObject({ code: -32601 });
    expect(logs.filter((line) => line.includes("speaking"))).toEqual([
      `[mem] debug: speaking Executa (first frame ${first.method})\n`,
    ]);
  });

  it("keeps to Executa when told to, even for an MCP-shaped initialize", async () => {
    const { send, reply } = serve("executa");
    send({ jsonrpc: "2.0", id: 1, ...MCP_INITIALIZE });
    expect((await reply(1)).result).toMatchObject({ protocolVersion: "1.1", serverInfo: { name: "mem" } });
  });

  it("speaks MCP from the start when told to: tools/list before initialize", async () => {
    const { send, reply } = serve("mcp");
    send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect((await reply(1)).result).toEqual({
      tools: [{ name: "hello", description: "Say hello", inputSchema: { type: "object", properties: {} } }],
    });
  });
});
