import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

// Hostile traffic against a plugin serving MCP over HTTP (`--mcp-http 127.0.0.1:0`) in a
// child process, over real sockets on loopback: requests that never finish arriving,
// connection and session floods, header tricks, and unsafe bind settings. Limits are made
// small through EXECUTA_MCP_HTTP_LIMITS so each case ends by itself in a few seconds.
const FIXTURE = fileURLToPath(new URL("./fixtures/http-plugin.mjs", import.meta.url));
const INIT = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "hostile", version: "1" } },
};
const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

interface Served {
  child: ChildProcess;
  url: string;
  port: number;
  stderr: () => string;
  exited: Promise<number | null>;
}

const running: Omit<Served, "url" | "port">[] = [];
const sockets: Socket[] = [];

/** Spawns the fixture; it is killed after the test whatever happens. */
function start(env: Record<string, string>, address: string): Omit<Served, "url" | "port"> {
  const { EXECUTA_MCP_HTTP_TOKEN: _token, EXECUTA_MCP_HTTP_LIMITS: _limits, ...outer } = process.env;
  const child = spawn(process.execPath, [FIXTURE, "--mcp-http", address], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...outer, ...env },
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const started = { child, stderr: () => stderr, exited };
  running.push(started);
  return started;
}

async function serve(limits: string): Promise<Served> {
  const started = start({ EXECUTA_MCP_HTTP_LIMITS: limits }, "127.0.0.1:0");
  const found = /at (http:\/\/\S+\/mcp)/;
  let gone = false;
  void started.exited.then(() => {
    gone = true;
  });
  await expect.poll(() => gone || found.test(started.stderr()), { timeout: 10_000 }).toBe(true);
  const url = found.exec(started.stderr())?.[1];
  if (!url) throw new Error(`the server did not start: ${started.stderr()}`);
  return { ...started, url, port: Number(new URL(url).port) };
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const served of running.splice(0)) {
    served.child.kill("SIGKILL");
    await served.exited;
  }
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function post(
  url: string,
  message: object,
  headers: Record<string, string> = {},
  agent?: Agent,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(message));
  });
}

function del(url: string, session: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "DELETE", headers: { "mcp-session-id": session } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * Opens a raw connection and writes `text`; resolves once the server closes it, with
 * everything it answered (empty when it closed without a word).
 */
function raw(port: number, text: string): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, "127.0.0.1");
  sockets.push(socket);
  let answer = "";
  socket.on("data", (chunk: Buffer) => {
    answer += chunk.toString();
  });
  socket.on("error", () => {});
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(answer)));
  socket.write(text);
  return { socket, closed };
}

const statusLine = (answer: string) => answer.split("\r\n")[0];
const stackLines = (text: string) => text.split("\n").filter((line) => /^\s+at /.test(line));

describe("MCP over HTTP under hostile traffic", () => {
  it("cuts off requests that never finish arriving, logs boundedly and without stacks, and serves new clients", async () => {
    const served = await serve("headersTimeoutMs=300,bodyTimeoutMs=600");
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nContent-Type: application/json\r\n`;
    const unfinished = Array.from(
      { length: 100 },
      () => raw(served.port, `${head}Transfer-Encoding: chunked\r\n\r\n5\r\n{"jso\r\n`).closed,
    );
    const slowHeaders = Array.from({ length: 20 }, () => raw(served.port, "POST /mcp HTTP/1.1\r\n").closed);
    const silent = Array.from({ length: 20 }, () => raw(served.port, "").closed);
    for (const answer of await Promise.all([...unfinished, ...slowHeaders, ...silent])) {
      expect(statusLine(answer)).toBe("HTTP/1.1 408 Request Timeout");
    }
    const fresh = await post(served.url, INIT);
    expect(fresh.status).toBe(200);
    // the timeouts bound receiving a request, not answering it: a longer call is answered
    const long = await post(
      served.url,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wait", arguments: { ms: 1500 } } },
      { "mcp-session-id": fresh.headers["mcp-session-id"] as string, accept: "application/json" },
    );
    expect(long.status).toBe(200);
    expect(JSON.parse(long.body).result.structuredContent).toEqual({ waited: 1500 });
    expect(stackLines(served.stderr())).toEqual([]);
    // 100 requests cut off mid-body: a log line each would be 100; the budget is 50 a window
    expect(served.stderr().split("\n").length).toBeLessThan(60);
  }, 30_000);

  it("caps connections: stalled ones make room for new clients; when all are answering, one more is closed", async () => {
    const served = await serve("maxConnections=16,headersTimeoutMs=60000,bodyTimeoutMs=60000");
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n`;
    const unfinished = Array.from(
      { length: 40 },
      () => raw(served.port, `${head}Transfer-Encoding: chunked\r\n\r\n5\r\n{"jso\r\n`).closed,
    );
    const session = await post(served.url, INIT);
    expect(session.status).toBe(200);
    const id = session.headers["mcp-session-id"] as string;

    // 16 connections each answering a call (16 run at once): none is stalled, so one more is
    // closed unanswered
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const calls = Array.from({ length: 16 }, (_, i) =>
      post(
        served.url,
        {
          jsonrpc: "2.0",
          id: 10 + i,
          method: "tools/call",
          params: { name: "wait", arguments: { ms: 20_000 } },
        },
        { "mcp-session-id": id, accept: "application/json" },
        agent,
      ).catch((error: Error) => error),
    );
    await expect.poll(() => served.stderr().split("wait started").length - 1, { timeout: 10_000 }).toBe(16);
    const body = JSON.stringify(INIT);
    const over = raw(
      served.port,
      `${head}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(await over.closed).toBe("");
    // the calls' clients go away: their connections close and new clients are served again
    agent.destroy();
    await Promise.all(calls);
    // every unfinished body was evicted for a newer connection, without an answer
    expect(await Promise.all(unfinished)).toEqual(Array(40).fill(""));
    await expect
      .poll(async () => (await post(served.url, INIT).catch(() => ({ status: 0 }))).status, {
        timeout: 10_000,
      })
      .toBe(200);
  }, 30_000);

  it("caps sessions: a flood of initialize evicts never-used sessions, then all in use gets 503", async () => {
    const served = await serve("maxSessions=20");
    const kept = (await post(served.url, INIT)).headers["mcp-session-id"] as string;
    expect((await post(served.url, LIST, { "mcp-session-id": kept })).status).toBe(200);
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const flood: string[] = [];
    for (let i = 0; i < 300; i++) {
      const answer = await post(served.url, INIT, {}, agent);
      expect(answer.status).toBe(200);
      flood.push(answer.headers["mcp-session-id"] as string);
    }
    // the session in use survived; of the flood only the newest 19 are left
    expect((await post(served.url, LIST, { "mcp-session-id": kept })).status).toBe(200);
    const statuses = await Promise.all(
      flood.map(async (id) => (await post(served.url, LIST, { "mcp-session-id": id }, agent)).status),
    );
    agent.destroy();
    expect(statuses.filter((status) => status === 200)).toHaveLength(19);
    expect(statuses.slice(-19)).toEqual(Array(19).fill(200));
    // every session is now in use: a new one is refused, clearly, until one ends
    const full = await post(served.url, INIT);
    expect(full.status).toBe(503);
    expect(full.headers["retry-after"]).toBe("5");
    expect(JSON.parse(full.body).error).toEqual({
      code: -32000,
      message: expect.stringContaining("Too many sessions: all 20 are in use"),
    });
    expect(await del(served.url, kept)).toBe(200);
    expect((await post(served.url, INIT)).status).toBe(200);
  }, 60_000);

  it("refuses a repeated Host, an Origin on another port and a junk Mcp-Name with 400/403", async () => {
    const served = await serve("");
    const body = JSON.stringify(INIT);
    const request = (headers: string) =>
      `POST /mcp HTTP/1.1\r\n${headers}Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
    const twoHosts = await raw(served.port, request("Host: localhost\r\nHost: evil.example\r\n")).closed;
    expect(statusLine(twoHosts)).toBe("HTTP/1.1 400 Bad Request");
    expect(twoHosts).toContain("the Host header is sent more than once");
    const twoTokens = await raw(
      served.port,
      request("Host: localhost\r\nAuthorization: a\r\nAuthorization: b\r\n"),
    ).closed;
    expect(statusLine(twoTokens)).toBe("HTTP/1.1 400 Bad Request");

    const host = `localhost:${served.port}`;
    expect((await post(served.url, INIT, { host, origin: `http://${host}` })).status).toBe(200);
    const otherPort = await post(served.url, INIT, { host, origin: `http://localhost:${served.port + 1}` });
    expect(otherPort.status).toBe(403);
    expect(otherPort.body).toContain("host and port");

    const modern = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "aborted",
        arguments: {},
        _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" },
      },
    };
    const headers = (name: string) => ({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
    });
    expect((await post(served.url, modern, headers("=?base64?YWJvcnRlZA==?="))).status).toBe(200);
    const junk = await post(served.url, modern, headers("=?base64?YWJvcnRlZA!!*==?="));
    expect(junk.status).toBe(400);
    expect(JSON.parse(junk.body).error).toEqual({
      code: -32020,
      message: expect.stringContaining("is not valid"),
    });
    // the server keeps serving
    expect((await post(served.url, INIT)).status).toBe(200);
  }, 30_000);

  it("refuses to serve a non-loopback address without a token, and an empty token, with exit code 2", async () => {
    const open = start({}, "0.0.0.0:0");
    expect(await open.exited).toBe(2);
    expect(open.stderr()).toContain(
      "refusing to serve MCP on 0.0.0.0, which other machines can reach, without a token: set EXECUTA_MCP_HTTP_TOKEN",
    );
    const empty = start({ EXECUTA_MCP_HTTP_TOKEN: "" }, "127.0.0.1:0");
    expect(await empty.exited).toBe(2);
    expect(empty.stderr()).toContain("EXECUTA_MCP_HTTP_TOKEN is set but empty");
    expect(empty.stderr()).not.toContain("serving MCP");
  }, 30_000);
});
