import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { answerOf, postMessage, type Served, serveHttpFixture } from "./http-harness.js";

// The load balancer's endpoints of `--mcp-http` in a child process: answered without the
// token and whatever Host the balancer sends, saying nothing but the status, and /readyz
// turning 503 while the server drains after SIGTERM.
const MODERN = "2026-07-28";
const TOKEN = "s3cret-health";
const running: Served[] = [];

afterEach(async () => {
  for (const served of running.splice(0)) await served.kill();
});

/** A GET with `headers`, its status and body. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on("error", reject)
      .end();
  });
}

describe("GET /healthz and /readyz", () => {
  it("answer 200 without the token, for any Host, with only the status; /mcp still needs the token", async () => {
    const served = await serveHttpFixture(["--mcp-http", "127.0.0.1:0"], { EXECUTA_MCP_HTTP_TOKEN: TOKEN });
    running.push(served);
    for (const path of ["/healthz", "/readyz"]) {
      const answer = await get(new URL(path, served.url).href, { host: "10.0.0.7:8080" });
      expect({ path, ...answer }).toEqual({ path, status: 200, body: '{"status":"ok"}' });
    }
    expect((await get(served.url)).status).toBe(401);
  });

  it("/readyz answers 503 while draining after SIGTERM; /healthz stays 200", async () => {
    const served = await serveHttpFixture(["--mcp-http", "127.0.0.1:0"], { EXECUTA_MCP_HTTP_TOKEN: TOKEN });
    running.push(served);
    const meta = {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    };
    const call = postMessage(
      served.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "wait", arguments: { ms: 1500 }, _meta: meta },
      },
      {
        authorization: `Bearer ${TOKEN}`,
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/call",
        "mcp-name": "wait",
      },
    );
    await served.waitFor("wait started");
    served.child.kill("SIGTERM");
    await served.waitFor("SIGTERM received; stopping");
    expect(await get(new URL("/readyz", served.url).href)).toEqual({
      status: 503,
      body: '{"status":"draining"}',
    });
    expect(await get(new URL("/healthz", served.url).href)).toEqual({ status: 200, body: '{"status":"ok"}' });
    // The call in flight still finishes and is answered.
    expect(answerOf(await call)).toMatchObject({ result: { structuredContent: { waited: 1500 } } });
    expect(await served.exited).toBe(0);
  });
});
