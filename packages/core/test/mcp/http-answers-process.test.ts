import { afterEach, describe, expect, it } from "vitest";
import { answerOf, postMessage, type Served, serveHttpFixture } from "./http-harness.js";

// Every POST carrying a request gets a JSON or SSE answer from a `--mcp-http` process: when
// its call is cancelled or its session ends, an SSE-only client, a modern revision the
// server does not speak.
const running: Served[] = [];

afterEach(async () => {
  for (const served of running.splice(0)) await served.kill();
});

async function serve(): Promise<Served> {
  const served = await serveHttpFixture();
  running.push(served);
  return served;
}

async function session(url: string): Promise<string> {
  const answer = await postMessage(url, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  expect(answer.status).toBe(200);
  return answer.headers["mcp-session-id"] as string;
}

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

describe("answers to every request POST over MCP HTTP", () => {
  it("answers a cancelled call's POST with a JSON-RPC error carrying its id", async () => {
    const served = await serve();
    const id = await session(served.url);
    const pending = postMessage(served.url, call(1, "wait", { ms: 20_000 }), { "mcp-session-id": id });
    await served.waitFor("wait started");
    const cancel = await postMessage(
      served.url,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "user stop" } },
      { "mcp-session-id": id },
    );
    expect(cancel.status).toBe(202);
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answerOf(answer)).toMatchObject({
      id: 1,
      error: { code: -32800, message: expect.stringContaining("cancelled by the client") },
    });
    await served.waitFor("wait aborted: cancelled by the MCP client: user stop");
  }, 30_000);

  it("answers the POSTs of a session ended mid-call with a JSON-RPC error, and aborts their tools", async () => {
    const served = await serve();
    const id = await session(served.url);
    const pending = postMessage(served.url, call(4, "wait", { ms: 20_000 }), { "mcp-session-id": id });
    await served.waitFor("wait started");
    const ended = await fetch(served.url, { method: "DELETE", headers: { "mcp-session-id": id } });
    expect(ended.status).toBe(200);
    expect(answerOf(await pending)).toMatchObject({
      id: 4,
      error: { code: -32800, message: expect.stringContaining("MCP session ended: ended by the client") },
    });
    await served.waitFor("wait aborted");
  }, 30_000);

  it("answers a client that accepts only text/event-stream with an event stream", async () => {
    const served = await serve();
    const id = await session(served.url);
    const answer = await postMessage(served.url, call(2, "aborted"), {
      "mcp-session-id": id,
      accept: "text/event-stream",
    });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/event-stream");
    expect(answer.body).toMatch(/^event: message\ndata: .+\n\n$/);
    expect(answerOf(answer)).toMatchObject({ id: 2, result: { structuredContent: { aborted: 0 } } });
  }, 30_000);

  it("answers a modern revision it does not speak with -32022, the revisions it does and the request's id", async () => {
    const served = await serve();
    const unspoken = "2027-03-01";
    const answer = await postMessage(
      served.url,
      {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/list",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": unspoken,
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      },
      { "mcp-protocol-version": unspoken, "mcp-method": "tools/list" },
    );
    expect(answer.status).toBe(400);
    expect(answerOf(answer)).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: {
        code: -32022,
        message: expect.stringContaining(`Unsupported protocol version ${unspoken}`),
        data: {
          supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
          requested: unspoken,
        },
      },
    });
  }, 30_000);
});
