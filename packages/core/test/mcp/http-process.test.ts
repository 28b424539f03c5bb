import { type ChildProcess, spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";

// A plugin on core serving MCP over Streamable HTTP (`--mcp-http 127.0.0.1:0`) in a child
// process, over real sockets: graceful stop mid-call, a vanishing client, streaming.
const FIXTURE = fileURLToPath(new URL("./fixtures/http-plugin.mjs", import.meta.url));
const INFO = { name: "http-process-test", version: "1.0.0" };

interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
  waitFor: (text: string) => Promise<void>;
}

const running: Served[] = [];

async function serve(args = ["--mcp-http", "127.0.0.1:0"]): Promise<Served> {
  const child = spawn(process.execPath, [FIXTURE, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const watchers = new Set<() => void>();
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const wake of watchers) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const waitFor = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const wake = () => {
        if (!stderr.includes(text)) return;
        watchers.delete(wake);
        resolve();
      };
      watchers.add(wake);
      wake();
      void exited.then(() => (stderr.includes(text) ? resolve() : reject(new Error(`exited: ${stderr}`))));
    });
  await waitFor("Streamable HTTP at ");
  const url = /at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1] as string;
  const served = { child, url, stderr: () => stderr, exited, waitFor };
  running.push(served);
  return served;
}

afterEach(async () => {
  for (const served of running.splice(0)) {
    served.child.kill("SIGKILL");
    await served.exited;
  }
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function post(url: string, message: object, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
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

async function session(url: string, capabilities: object = {}): Promise<string> {
  const answer = await post(url, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities, clientInfo: INFO },
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

describe("MCP over HTTP in a plugin process", () => {
  it("refuses a malformed --mcp-http address with exit code 2 and the accepted forms", async () => {
    const child = spawn(process.execPath, [FIXTURE, "--mcp-http", "localhost:http"], { stdio: "pipe" });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toContain("--mcp-http expects [HOST:]PORT");
  });

  it("on SIGTERM finishes the call in flight, refuses new requests with 503, then exits 0", async () => {
    const served = await serve();
    const id = await session(served.url);
    const slow = post(served.url, call(1, "wait", { ms: 700 }), {
      "mcp-session-id": id,
      accept: "application/json",
    });
    await served.waitFor("wait started");
    served.child.kill("SIGTERM");
    await served.waitFor("SIGTERM received");
    const refused = await post(served.url, call(2, "aborted"), { "mcp-session-id": id });
    expect(refused.status).toBe(503);
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).result.structuredContent ?? JSON.parse(answer.body).result).toBeDefined();
    expect(answer.body).toContain("700");
    expect(await served.exited).toBe(0);
  });

  it("aborts the tool of a client that vanishes mid-call, and serves the others on", async () => {
    const served = await serve();
    const [gone, other] = [await session(served.url), await session(served.url)];
    const req = httpRequest(served.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "mcp-session-id": gone },
    });
    req.on("error", () => {});
    req.end(JSON.stringify(call(1, "wait", { ms: 20_000 })));
    await served.waitFor("wait started");
    req.destroy();
    await served.waitFor("wait aborted");
    const answer = await post(served.url, call(1, "aborted"), { "mcp-session-id": other });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('\\"aborted\\":1');
  });

  it("streams progress and a sampling request to an SDK v1 client, answering on the same stream", async () => {
    const served = await serve();
    const client = new Client(INFO, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "hi over http" },
      model: "test-model",
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    const progress: number[] = [];
    const waited = await client.callTool({ name: "wait", arguments: { ms: 50 } }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(progress).toEqual([1]);
    expect(JSON.stringify(waited)).toContain("50");
    const sampled = await client.callTool({ name: "ask_model", arguments: {} });
    expect(JSON.stringify(sampled)).toContain("hi over http");
    await client.close();
  });

  it("answers as JSON unless the call has to stream, and a JSON-only client is told why it cannot", async () => {
    const served = await serve();
    const id = await session(served.url, { sampling: {} });
    const plain = await post(served.url, call(1, "wait", { ms: 1 }), { "mcp-session-id": id });
    expect(plain.headers["content-type"]).toBe("application/json");
    const withProgress = call(2, "wait", { ms: 1 });
    Object.assign(withProgress.params, { _meta: { progressToken: "p" } });
    const streamed = await post(served.url, withProgress, { "mcp-session-id": id });
    expect(streamed.headers["content-type"]).toBe("text/event-stream");
    const events = streamed.body.split("\n").filter((line) => line.startsWith("data: "));
    expect(events.map((line) => JSON.parse(line.slice(6)).method ?? "answer")).toEqual([
      "notifications/progress",
      "answer",
    ]);
    const sampling = await post(
      served.url,
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "ask_model", arguments: {} },
      },
      { "mcp-session-id": id, accept: "application/json" },
    );
    expect(sampling.headers["content-type"]).toBe("application/json");
    expect(sampling.body).toContain("text/event-stream");
  });
});
