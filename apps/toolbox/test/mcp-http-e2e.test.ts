import { request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServed, serveHttp } from "./serve-http.js";

// The built toolbox serving MCP over Streamable HTTP (`--mcp-http 127.0.0.1:0`), driven
// over real sockets by the official clients and by raw requests that break the rules.
const bundle = fileURLToPath(new URL("../dist/toolbox.cjs", import.meta.url));
const INFO = { name: "toolbox-http-test", version: "1.0.0" };

function serve(env: Record<string, string> = {}): Promise<HttpServed> {
  return serveHttp(process.execPath, [bundle], env);
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request; `headers` replace the defaults (JSON in, JSON or SSE out). */
function raw(url: string, method: string, body?: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    // A refused large body ends the connection while it is still being sent: the answer counts.
    req.on("error", (error) => setTimeout(() => reject(error), 200));
    req.end(body);
  });
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: INFO },
});

async function rawSession(url: string): Promise<string> {
  const answer = await raw(url, "POST", INIT);
  expect(answer.status).toBe(200);
  const id = answer.headers["mcp-session-id"];
  expect(typeof id).toBe("string");
  return id as string;
}

function call(id: number, name: string, args: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
}

describe("toolbox over MCP Streamable HTTP", () => {
  let served: HttpServed;
  beforeAll(async () => {
    served = await serve();
  });
  afterAll(async () => {
    served.child.kill("SIGKILL");
    await served.exited;
  });

  it("lists and calls tools with SDK v1's StreamableHTTPClientTransport", async () => {
    const client = new ClientV1(INFO);
    await client.connect(new HttpV1(new URL(served.url)));
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain("base64_encode");
    const result = await client.callTool({ name: "base64_encode", arguments: { text: "héllo" } });
    expect(JSON.stringify(result.content)).toContain("aMOpbGxv");
    const bad = await client.callTool({ name: "base64_encode", arguments: { text: 42 } });
    expect(bad.isError).toBe(true);
    await client.close();
  });

  for (const mode of ["legacy", "auto", "modern"] as const) {
    it(`lists and calls tools with the SDK v2 client (${mode})`, async () => {
      const negotiation = mode === "modern" ? { pin: "2026-07-28" } : mode;
      const client = new ClientV2(INFO, { versionNegotiation: { mode: negotiation } } as never);
      await client.connect(new HttpV2(new URL(served.url)));
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toContain("hash_text");
      const result = await client.callTool({ name: "hash_text", arguments: { text: "a", algorithm: "md5" } });
      expect(JSON.stringify(result)).toContain("0cc175b9c0f1b6a831c399e269772661");
      await client.close();
    });
  }

  it("answers each bad request with its status while another session keeps working", async () => {
    const keeper = await rawSession(served.url);
    const other = await rawSession(served.url);
    const cases: [string, Promise<Raw>, number, number?][] = [
      ["malformed JSON", raw(served.url, "POST", "{not json", { "mcp-session-id": other }), 400, -32700],
      ["a batch", raw(served.url, "POST", `[${INIT}]`), 400, -32600],
      ["wrong content type", raw(served.url, "POST", INIT, { "content-type": "text/plain" }), 415],
      ["nothing acceptable", raw(served.url, "POST", INIT, { accept: "text/html" }), 406],
      ["oversized body", raw(served.url, "POST", "x".repeat(5 * 1024 * 1024)), 413],
      ["no session", raw(served.url, "POST", call(2, "hash_text", { text: "a" })), 400],
      [
        "unknown session",
        raw(served.url, "POST", call(2, "hash_text", { text: "a" }), { "mcp-session-id": "nope" }),
        404,
      ],
      ["foreign Origin", raw(served.url, "POST", INIT, { origin: "http://evil.example" }), 403],
      ["foreign Host", raw(served.url, "POST", INIT, { host: "evil.example" }), 403],
      ["wrong path", raw(served.url.replace(/\/mcp$/, "/other"), "POST", INIT), 404],
      ["GET", raw(served.url, "GET", undefined, { "mcp-session-id": other }), 405],
      [
        "unknown protocol version",
        raw(served.url, "POST", INIT, { "mcp-protocol-version": "1999-01-01" }),
        400,
      ],
    ];
    for (const [what, answer, status, code] of cases) {
      const got = await answer;
      expect(got.status, what).toBe(status);
      const body = JSON.parse(got.body) as { id: unknown; error: { code: number; message: string } };
      expect(body.id, what).toBeNull();
      if (code !== undefined) expect(body.error.code, what).toBe(code);
      expect(body.error.message.length, what).toBeGreaterThan(10);
    }
    const still = await raw(served.url, "POST", call(3, "base64_encode", { text: "ok" }), {
      "mcp-session-id": keeper,
    });
    expect(still.status).toBe(200);
    expect(still.headers["content-type"]).toBe("application/json");
    expect(still.body).toContain("b2s=");
  });

  it("holds a 2026-07-28 request's standard headers to its body (MCP-Protocol-Version, Mcp-Method, Mcp-Name)", async () => {
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": INFO,
    };
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "base64_encode", arguments: { text: "ok" }, _meta: meta },
    });
    const full = {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "base64_encode",
    };
    const without = (name: keyof typeof full) =>
      Object.fromEntries(Object.entries(full).filter(([key]) => key !== name));
    const sentinel = `=?base64?${Buffer.from("base64_encode").toString("base64")}?=`;
    const cases: [string, Record<string, string>, number, number?][] = [
      ["all three", full, 200],
      ["Mcp-Name as a base64 sentinel", { ...full, "mcp-name": sentinel }, 200],
      ["no MCP-Protocol-Version", without("mcp-protocol-version"), 400, -32020],
      ["an older MCP-Protocol-Version", { ...full, "mcp-protocol-version": "2025-06-18" }, 400, -32020],
      ["no Mcp-Method", without("mcp-method"), 400, -32020],
      ["another Mcp-Method", { ...full, "mcp-method": "tools/list" }, 400, -32020],
      ["no Mcp-Name", without("mcp-name"), 400, -32020],
      ["another Mcp-Name", { ...full, "mcp-name": "hash_text" }, 400, -32020],
    ];
    for (const [what, headers, status, code] of cases) {
      const got = await raw(served.url, "POST", body, headers);
      expect(got.status, what).toBe(status);
      if (code === undefined) {
        expect(got.body, what).toContain("b2s=");
        continue;
      }
      const error = (JSON.parse(got.body) as { error: { code: number; message: string } }).error;
      expect(error.code, what).toBe(code);
      expect(error.message, what).toMatch(/header/i);
    }
    const claimless = await raw(served.url, "POST", call(8, "base64_encode", { text: "a" }), full);
    expect(claimless.status, "a modern header on a request without the envelope").toBe(400);
    expect((JSON.parse(claimless.body) as { error: { code: number } }).error.code).toBe(-32602);
  });

  it("ends a session on DELETE and answers 404 for it after", async () => {
    const id = await rawSession(served.url);
    expect((await raw(served.url, "DELETE", undefined, { "mcp-session-id": id })).status).toBe(200);
    const after = await raw(served.url, "POST", call(2, "base64_encode", { text: "a" }), {
      "mcp-session-id": id,
    });
    expect(after.status).toBe(404);
    expect((await raw(served.url, "DELETE", undefined, { "mcp-session-id": id })).status).toBe(404);
  });

  it("serves many sessions at once, and a client vanishing mid-call hurts no other", async () => {
    const sessions = await Promise.all(Array.from({ length: 24 }, () => rawSession(served.url)));
    const vanishing = httpRequest(served.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "mcp-session-id": sessions[0],
      },
    });
    vanishing.on("error", () => {});
    vanishing.end(call(9, "generate_dataset", { rows: 5000, columns: ["id", "name", "email"] }));
    setTimeout(() => vanishing.destroy(), 5);
    const answers = await Promise.all(
      sessions
        .slice(1)
        .map((id, i) =>
          raw(served.url, "POST", call(i + 10, "base64_encode", { text: `s${i}` }), { "mcp-session-id": id }),
        ),
    );
    for (const [i, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.body).toContain(Buffer.from(`s${i}`).toString("base64"));
    }
    expect(served.child.exitCode).toBeNull();
  });
});

describe("toolbox over HTTP with a bearer token", () => {
  it("refuses requests without EXECUTA_MCP_HTTP_TOKEN's token and serves those with it", async () => {
    const served = await serve({ EXECUTA_MCP_HTTP_TOKEN: "s3cret" });
    try {
      const none = await raw(served.url, "POST", INIT);
      expect(none.status).toBe(401);
      expect(none.headers["www-authenticate"]).toContain("Bearer");
      expect((await raw(served.url, "POST", INIT, { authorization: "Bearer wrong" })).status).toBe(401);
      const client = new ClientV1(INFO);
      await client.connect(
        new HttpV1(new URL(served.url), { requestInit: { headers: { authorization: "Bearer s3cret" } } }),
      );
      expect((await client.listTools()).tools.length).toBeGreaterThan(3);
      await client.close();
    } finally {
      served.child.kill("SIGKILL");
      await served.exited;
    }
  });
});
