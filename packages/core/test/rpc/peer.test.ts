import { describe, expect, it, vi } from "vitest";
import { RpcError } from "../../src/errors/rpc-error.js";
import { createLogger } from "../../src/log/logger.js";
import { JsonRpcPeer, type RequestHandler } from "../../src/rpc/peer.js";
import { streamTransport } from "../../src/transport/stream-transport.js";
import { memoryPipe } from "../helpers/memory-pipe.js";

function setup(handleRequest: RequestHandler = () => ({})) {
  const pipe = memoryPipe();
  const logs: string[] = [];
  const peer = new JsonRpcPeer({
    transport: streamTransport(pipe.input, { stream: pipe.output }),
    handleRequest,
    log: createLogger("test", { write: (line) => logs.push(line), level: "debug" }),
  });
  return { ...pipe, peer, logs };
}

describe("JsonRpcPeer: incoming frames", () => {
  it.each([
    ["not json", null, -32700],
    ["[1,2]", null, -32600],
    ["42", null, -32600],
    ['"text"', null, -32600],
    ['{"id":5}', 5, -32600],
    ['{"jsonrpc":"1.0","id":6,"method":"describe"}', 6, -32600],
    ['{"jsonrpc":"2.0","id":"x7","method":9}', "x7", -32600],
    ['{"jsonrpc":"2.0","id":{"a":1},"method":"describe"}', null, -32600],
    ['{"jsonrpc":"2.0","id":8,"method":"describe","params":3}', 8, -32600],
  ])("answers %s with the right error and id", async (line, id, code) => {
    const { send, waitFor } = setup();
    send(line);
    const [frame] = await waitFor(1);
    expect(frame).toMatchObject({ jsonrpc: "2.0", id, error: { code } });
  });

  it("answers requests, keeps notifications unanswered, and answers in settle order", async () => {
    const seen: string[] = [];
    const { send, waitFor, frames } = setup(async (request) => {
      seen.push(request.method);
      if (request.method === "slow") await new Promise((r) => setTimeout(r, 50));
      return { method: request.method };
    });
    send({ jsonrpc: "2.0", id: 1, method: "slow" });
    send({ jsonrpc: "2.0", method: "note" });
    send({ jsonrpc: "2.0", id: 2, method: "fast" });
    await waitFor(2);
    await new Promise((r) => setTimeout(r, 30));
    expect(seen).toEqual(["slow", "note", "fast"]);
    expect(frames.map((f) => f.id)).toEqual([2, 1]);
  });

  it("maps thrown RpcErrors to error frames and other errors to -32603 without a stack", async () => {
    const { send, reply } = setup((request) => {
      if (request.method === "rpc") throw new RpcError(-32602, "bad", { field: "x" });
      throw new Error("secret stack detail");
    });
    send({ jsonrpc: "2.0", id: 1, method: "rpc" });
    send({ jsonrpc: "2.0", id: 2, method: "other" });
    expect(await reply(1)).toMatchObject({ error: { code: -32602, message: "bad", data: { field: "x" } } });
    const internal = await reply(2);
    expect(internal).toMatchObject({ error: { code: -32603 } });
    expect(JSON.stringify(internal)).not.toContain("secret stack detail");
  });

  it("turns an unserializable result into -32603 for that id", async () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const { send, reply } = setup((request) => (request.method === "cycle" ? cycle : { n: 1n }));
    send({ jsonrpc: "2.0", id: 1, method: "cycle" });
    send({ jsonrpc: "2.0", id: 2, method: "bigint" });
    expect(await reply(1)).toMatchObject({ error: { code: -32603 } });
    expect(await reply(2)).toMatchObject({ error: { code: -32603 } });
  });
});

describe("JsonRpcPeer: outgoing requests", () => {
  it("sends string ids and routes replies by id, out of order", async () => {
    const { peer, send, waitFor } = setup();
    const first = peer.request("storage/get", { key: "a" });
    const second = peer.request("storage/get", { key: "b" });
    const [a, b] = await waitFor(2);
    expect(typeof a?.id).toBe("string");
    expect(a).toMatchObject({ jsonrpc: "2.0", method: "storage/get", params: { key: "a" } });
    send({ jsonrpc: "2.0", id: b?.id, result: { value: "B" } });
    send({ jsonrpc: "2.0", id: a?.id, result: { value: "A" } });
    await expect(second).resolves.toEqual({ value: "B" });
    await expect(first).resolves.toEqual({ value: "A" });
    expect(peer.pendingCount).toBe(0);
  });

  it("rejects with an RpcError carrying the host's code and data", async () => {
    const { peer, send, waitFor } = setup();
    const call = peer.request("storage/set", {});
    const [frame] = await waitFor(1);
    send({
      jsonrpc: "2.0",
      id: frame?.id,
      error: { code: -32023, message: "etag mismatch", data: { etag: "e2" } },
    });
    await expect(call).rejects.toMatchObject({
      code: -32023,
      message: "etag mismatch",
      data: { etag: "e2" },
    });
  });

  it("times out, forgets the id, and logs (does not crash on) a late reply", async () => {
    const { peer, send, waitFor, logs } = setup();
    const call = peer.request("sampling/createMessage", {}, { timeoutMs: 20 });
    const [frame] = await waitFor(1);
    await expect(call).rejects.toThrow(/timed out after 20 ms/);
    send({ jsonrpc: "2.0", id: frame?.id, result: {} });
    // Expected: this peer gave up on the id, so the late reply is a debug line, not a warning.
    await vi.waitFor(() =>
      expect(logs.join("")).toContain("debug: dropped the late response for abandoned id"),
    );
    expect(logs.join("")).not.toContain("unknown id");
    expect(peer.pendingCount).toBe(0);
  });

  it("remembers only the latest 1024 abandoned ids: a reply to an older one warns", async () => {
    let next = 0;
    const pipe = memoryPipe();
    const logs: string[] = [];
    const peer = new JsonRpcPeer({
      transport: streamTransport(pipe.input, { stream: pipe.output }),
      handleRequest: () => ({}),
      log: createLogger("test", { write: (line) => logs.push(line), level: "debug" }),
      newId: () => `r${next++}`,
    });
    const calls = Array.from({ length: 1025 }, () => peer.request("x", {}, { timeoutMs: 1 }).catch(() => {}));
    await Promise.all(calls);
    pipe.send({ jsonrpc: "2.0", id: "r0", result: {} });
    pipe.send({ jsonrpc: "2.0", id: "r1", result: {} });
    await vi.waitFor(() => expect(logs.join("")).toContain('"r1"'));
    expect(logs.join("")).toContain('warn: dropped a response for unknown id "r0"');
    expect(logs.join("")).toContain('debug: dropped the late response for abandoned id "r1"');
  });

  it("uses the caller's timeout error and aborts with the signal's reason", async () => {
    const { peer } = setup();
    await expect(
      peer.request("x", {}, { timeoutMs: 5, timeoutError: () => new RpcError(-32030, "storage timeout") }),
    ).rejects.toMatchObject({ code: -32030 });
    const controller = new AbortController();
    const call = peer.request("y", {}, { signal: controller.signal });
    controller.abort(new Error("invoke ended"));
    await expect(call).rejects.toThrow("invoke ended");
    expect(peer.pendingCount).toBe(0);
  });

  it("rejects an aborted request with an AbortError carrying a non-Error reason's text, as the capability clients do", async () => {
    const { peer } = setup();
    const early = new AbortController();
    early.abort("plugin stopping");
    await expect(peer.request("x", {}, { signal: early.signal })).rejects.toMatchObject({
      name: "AbortError",
      message: "plugin stopping",
    });
    const late = new AbortController();
    const call = peer.request("y", {}, { signal: late.signal });
    late.abort("invoke ended");
    await expect(call).rejects.toMatchObject({ name: "AbortError", message: "invoke ended" });
  });

  it("never answers a response, even an error report with id null", async () => {
    const { send, logs, frames, peer } = setup();
    send({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request" } });
    send({ jsonrpc: "2.0", id: { bad: 1 }, result: 1 });
    await vi.waitFor(() => expect(logs.join("")).toContain("without a usable id"));
    await new Promise((r) => setTimeout(r, 20));
    expect(frames).toEqual([]);
    expect(peer.pendingCount).toBe(0);
  });

  it("logs a reply for an unknown id without answering it", async () => {
    const { send, logs, frames } = setup();
    send({ jsonrpc: "2.0", id: "nobody", result: 1 });
    await vi.waitFor(() => expect(logs.join("")).toContain('unknown id "nobody"'));
    expect(frames).toEqual([]);
  });
});
