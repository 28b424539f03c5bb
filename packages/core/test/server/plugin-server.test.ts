import { describe, expect, it } from "vitest";
import { resolveCredentials } from "../../src/context/create-context.js";
import { createLogger } from "../../src/log/logger.js";
import { createPluginServer } from "../../src/server/create-server.js";
import type { PluginDefinition } from "../../src/server/definition.js";
import { definePlugin } from "../../src/server/definition.js";
import { ConcurrencyLimiter } from "../../src/server/limiter.js";
import { clientCapabilitiesFor, negotiateVersion } from "../../src/server/negotiation.js";
import { memoryPipe } from "../helpers/memory-pipe.js";

const manifest = {
  name: "mem",
  version: "0.1.0",
  description: "in-memory",
  tools: [{ name: "big", description: "big" }],
};

function serveInMemory(definition: PluginDefinition) {
  const pipe = memoryPipe();
  const logs: string[] = [];
  const server = createPluginServer(definition, {
    input: pipe.input,
    output: pipe.output,
    log: createLogger("mem", { write: (line) => logs.push(line) }),
    fileTransportThresholdBytes: Number.POSITIVE_INFINITY,
  });
  return { ...pipe, server, logs };
}

describe("PluginServer in process", () => {
  it("answers health with initializing while the start hook runs, then ready; invokes wait for it", async () => {
    let finishStart!: () => void;
    const { send, reply, server } = serveInMemory({
      manifest,
      handlers: { big: () => "done" },
      onStart: () => new Promise<void>((resolve) => (finishStart = resolve)),
    });
    send({ jsonrpc: "2.0", id: 1, method: "health" });
    expect((await reply(1)).result).toMatchObject({ status: "initializing" });
    send({ jsonrpc: "2.0", id: 2, method: "invoke", params: { tool: "big" } });
    await new Promise((r) => setTimeout(r, 30));
    finishStart();
    expect((await reply(2)).result).toMatchObject({ success: true, data: "done" });
    send({ jsonrpc: "2.0", id: 3, method: "health" });
    expect((await reply(3)).result).toMatchObject({ status: "ready" });
    await server.stop();
  });

  it("reports a failed start hook in health and on invokes", async () => {
    const { send, reply } = serveInMemory({
      manifest,
      handlers: { big: () => "never" },
      onStart: () => {
        throw new Error("no database");
      },
    });
    send({ jsonrpc: "2.0", id: 1, method: "invoke", params: { tool: "big" } });
    expect((await reply(1)).error).toMatchObject({
      code: -32603,
      message: "Plugin failed to start: no database",
    });
    send({ jsonrpc: "2.0", id: 2, method: "health" });
    expect((await reply(2)).result).toMatchObject({ status: "error", message: "start failed: no database" });
  });

  it("runs the stop hook once and resolves done with the reason", async () => {
    let stops = 0;
    const { server, input } = serveInMemory({
      manifest,
      handlers: { big: () => 1 },
      onStop: () => void stops++,
    });
    input.end();
    expect(await server.done).toBe("eof");
    await server.stop();
    expect(stops).toBe(1);
  });

  it("warns on stderr when an invoke result passes the ~4 MiB App contract", async () => {
    const { send, reply, logs } = serveInMemory({
      manifest,
      handlers: { big: () => "x".repeat(5 * 1024 * 1024) },
    });
    send({ jsonrpc: "2.0", id: 1, method: "invoke", params: { tool: "big" } });
    expect((await reply(1)).result).toMatchObject({ success: true });
    expect(logs.join("")).toContain("4 MiB App transport contract");
  });

  it("announces client_capabilities from host_capabilities only on a 2.0 handshake", async () => {
    const { send, reply } = serveInMemory({
      manifest: { ...manifest, host_capabilities: ["llm.sample", "aps.kv"] },
      handlers: { big: () => 1 },
    });
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2.0" } });
    expect((await reply(1)).result).toMatchObject({
      protocolVersion: "2.0",
      client_capabilities: { sampling: {}, storage: { kv: true } },
    });
  });
});

describe("server parts", () => {
  it("negotiates 2.0 only when a 2.x version is offered", () => {
    expect(negotiateVersion({ protocolVersion: "2.0" })).toBe("2.0");
    expect(negotiateVersion({ protocolVersion: "1.1" })).toBe("1.1");
    expect(negotiateVersion(undefined)).toBe("1.1");
    expect(negotiateVersion({ protocolVersion: "20" })).toBe("1.1");
  });

  it("maps every host capability to client_capabilities", () => {
    expect(
      clientCapabilitiesFor([
        "llm.sample",
        "aps.kv",
        "aps.files",
        "host.upload",
        "llm.image",
        "llm.image.edit",
        "llm.embed",
        "llm.agent.auto",
      ]),
    ).toEqual({
      sampling: {},
      storage: { kv: true, files: true },
      upload: {},
      image: {},
      "image.edit": {},
      embeddings: {},
      agent: { submodes: ["auto"] },
    });
    expect(clientCapabilitiesFor([])).toEqual({});
  });

  it("resolves credentials: host value, else env, else declared default", () => {
    const declared = [{ name: "A" }, { name: "B" }, { name: "C", default: "dc" }, { name: "D" }];
    expect(resolveCredentials({ A: "host" }, declared, { A: "envA", B: "envB" })).toEqual({
      A: "host",
      B: "envB",
      C: "dc",
    });
  });

  it("limits concurrency in arrival order and skips withdrawn waiters", () => {
    const limiter = new ConcurrencyLimiter(1);
    const order: string[] = [];
    limiter.acquire(() => order.push("a"));
    const withdrawB = limiter.acquire(() => order.push("b"));
    limiter.acquire(() => order.push("c"));
    expect(limiter.queued).toBe(2);
    withdrawB();
    limiter.release();
    expect(order).toEqual(["a", "c"]);
    expect(() => new ConcurrencyLimiter(0)).toThrow(RangeError);
  });

  it("definePlugin rejects a tool without handler, a stray handler and duplicates", () => {
    expect(() => definePlugin({ manifest, handlers: {} })).toThrow('tool "big" has no handler');
    expect(() => definePlugin({ manifest, handlers: { big: () => 1, other: () => 2 } })).toThrow(
      'handler "other" is not in the manifest',
    );
    expect(() =>
      definePlugin({
        manifest: { ...manifest, tools: [...manifest.tools, ...manifest.tools] },
        handlers: { big: () => 1 },
      }),
    ).toThrow("duplicate tool name");
  });
});
