import { existsSync } from "node:fs";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requirePrerequisite, skipWithout } from "../../../../../tooling/test-support/src/prerequisite.js";
import {
  type RedisServer,
  redisServerAvailable,
  startRedisServer,
} from "../../../../../tooling/test-support/src/redis-server.js";
import { REQUEST_ENDED_CODE } from "../../../src/mcp/http/http-session.js";
import { answerOf, postMessage, type Served, serveHttpFixture } from "../http-harness.js";
import { openAnswer, type RoundRobinProxy, startRoundRobinProxy } from "./replicas-harness.js";

// Three replicas of the fixture plugin share one Redis behind a round-robin proxy: a
// legacy session, its streams' events and its cancellations reach every replica.
const coreBuilt = existsSync(fileURLToPath(new URL("../../../dist/index.js", import.meta.url)));
const ready = coreBuilt && redisServerAvailable();

const MODERN = "2026-07-28";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: { sampling: {} },
    clientInfo: { name: "raw", version: "1" },
  },
};

function waitCall(id: number, ms: number) {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "wait", arguments: { ms }, _meta: { progressToken: `p${id}` } },
  };
}

describe.skipIf(skipWithout(ready))("legacy sessions shared on Redis by three replicas", () => {
  let redis: RedisServer;
  let replicas: Served[] = [];
  let proxy: RoundRobinProxy;

  beforeAll(async () => {
    requirePrerequisite(coreBuilt, "packages/core/dist is missing: run pnpm --filter @executa/core build");
    requirePrerequisite(redisServerAvailable(), "redis-server is not on PATH: apt-get install redis-server");
    redis = await startRedisServer();
    const env = { EXECUTA_MCP_REDIS_URL: redis.url };
    replicas = await Promise.all([0, 1, 2].map(() => serveHttpFixture(["--mcp-http", "127.0.0.1:0"], env)));
    proxy = await startRoundRobinProxy(replicas.map((replica) => replica.url));
  }, 30_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(replicas.map((replica) => replica.kill()));
    await redis?.stop();
  });

  /** A session begun with `initialize` on `url`; its id. */
  async function begin(url: string): Promise<string> {
    const answer = await postMessage(url, INITIALIZE);
    expect(answer.status).toBe(200);
    return answer.headers["mcp-session-id"] as string;
  }

  it("serves an SDK client's session on every replica, though it began on one", async () => {
    const client = new Client({ name: "replicated", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
    const before = proxy.served.length;
    const answers = [];
    for (const ms of [1, 2, 3]) answers.push(await client.callTool({ name: "wait", arguments: { ms } }));
    expect(answers.map((answer) => answer.structuredContent)).toEqual([
      { waited: 1 },
      { waited: 2 },
      { waited: 3 },
    ]);
    expect(new Set(proxy.served.slice(before)).size).toBe(3);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("wait");
    await client.close();
    // Each replica the session reached after its first took it over from the shared record.
    const takenOver = replicas.filter((replica) =>
      replica.stderr().includes("taken over from another server"),
    );
    expect(takenOver.length).toBeGreaterThanOrEqual(2);
  });

  it("serves modern-era calls on any replica without writing to Redis", async () => {
    const keys = new Redis(redis.url);
    try {
      const before = (await keys.keys("executa:mcp:*")).filter((key) => !key.includes(":replica:"));
      const answers = [];
      for (const id of [21, 22, 23]) {
        const meta = {
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "modern", version: "1" },
        };
        const call = {
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "wait", arguments: { ms: 1 }, _meta: meta },
        };
        const headers = { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "wait" };
        answers.push(await postMessage(proxy.url, call, headers));
      }
      expect(new Set(answers.map((answer) => answer.headers["x-upstream"])).size).toBe(3);
      expect(answers.map((answer) => answerOf(answer))).toEqual(
        [21, 22, 23].map((id) =>
          expect.objectContaining({
            id,
            result: expect.objectContaining({ structuredContent: { waited: 1 } }),
          }),
        ),
      );
      const after = (await keys.keys("executa:mcp:*")).filter((key) => !key.includes(":replica:"));
      expect(after.sort()).toEqual(before.sort());
    } finally {
      keys.disconnect();
    }
  });

  it("ends a session everywhere when its client ends it on one replica, cancelling its calls", async () => {
    const [running, other, ending] = replicas as [Served, Served, Served];
    const session = await begin(running.url);
    const header = { "mcp-session-id": session };
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    expect((await postMessage(other.url, ping, header)).status).toBe(200);
    const call = await openAnswer(running.url, "POST", header, waitCall(5, 30_000));
    expect((await call.next())?.data.method).toBe("notifications/progress");
    const aborted = running.stderr().split("wait aborted").length;
    expect((await fetch(ending.url, { method: "DELETE", headers: header })).status).toBe(200);
    const { events } = await call.rest();
    expect(events.at(-1)?.data).toMatchObject({ id: 5, error: { code: REQUEST_ENDED_CODE } });
    await running.waitFor("wait aborted", aborted);
    for (const replica of [running, other]) {
      expect((await postMessage(replica.url, ping, header)).status).toBe(404);
    }
  });

  it("cancels a call on the replica running it when the cancellation reaches another", async () => {
    const [running, other] = replicas as [Served, Served];
    const session = await begin(running.url);
    const header = { "mcp-session-id": session };
    const call = await openAnswer(running.url, "POST", header, waitCall(7, 30_000));
    expect((await call.next())?.data.method).toBe("notifications/progress");
    const aborted = running.stderr().split("wait aborted").length;
    const cancel = {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 7, reason: "changed my mind" },
    };
    expect((await postMessage(other.url, cancel, header)).status).toBe(202);
    const { events, ending } = await call.rest();
    expect(ending).toBe("end");
    expect(events.at(-1)?.data).toMatchObject({ id: 7, error: { code: REQUEST_ENDED_CODE } });
    await running.waitFor("wait aborted", aborted);
  });

  it("routes the client's answer to a sampling request, sent to another replica, to the call that asked", async () => {
    const [running, other] = replicas as [Served, Served];
    const session = await begin(running.url);
    const header = { "mcp-session-id": session };
    const call = await openAnswer(running.url, "POST", header, {
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "ask_model", arguments: {} },
    });
    const ask = (await call.next())?.data;
    expect(ask?.method).toBe("sampling/createMessage");
    const reply = {
      jsonrpc: "2.0",
      id: ask?.id,
      result: { role: "assistant", content: { type: "text", text: "hi from afar" }, model: "m" },
    };
    expect((await postMessage(other.url, reply, header)).status).toBe(202);
    const { events } = await call.rest();
    expect(events.at(-1)?.data).toMatchObject({
      id: 9,
      result: { structuredContent: { reply: "hi from afar" } },
    });
  });

  it("resumes a stream on another replica with Last-Event-ID while its call goes on", async () => {
    const [running, other] = replicas as [Served, Served];
    const session = await begin(running.url);
    const header = { "mcp-session-id": session };
    const call = await openAnswer(running.url, "POST", header, waitCall(8, 1_500));
    const progress = await call.next();
    expect(progress?.id).toBeDefined();
    call.destroy();
    const resumed = await openAnswer(other.url, "GET", {
      ...header,
      "last-event-id": progress?.id as string,
    });
    expect(resumed.status).toBe(200);
    const { events, ending } = await resumed.rest();
    expect(ending).toBe("end");
    expect(events.map((event) => event.data)).toEqual([
      { jsonrpc: "2.0", id: 8, result: expect.objectContaining({ structuredContent: { waited: 1500 } }) },
    ]);
  });

  it("still cancels the call of a client that goes away before it holds an event id", async () => {
    const running = replicas[1] as Served;
    const session = await begin(running.url);
    const started = running.stderr().split("wait started").length;
    const aborted = running.stderr().split("wait aborted").length;
    // No progress token: the answer would be plain JSON, nothing numbered is sent to resume from.
    const call = {
      jsonrpc: "2.0",
      id: 10,
      method: "tools/call",
      params: { name: "wait", arguments: { ms: 30_000 } },
    };
    const req = request(running.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": session,
      },
    });
    req.on("error", () => {});
    req.end(JSON.stringify(call));
    await running.waitFor("wait started", started);
    req.destroy();
    await running.waitFor("wait aborted", aborted);
  });

  it("refuses a Last-Event-ID naming no stream of the session", async () => {
    const session = await begin(replicas[1]?.url as string);
    const made = await openAnswer(replicas[2]?.url as string, "GET", {
      "mcp-session-id": session,
      "last-event-id": "made-up/1",
    });
    expect(made.status).toBe(404);
  });

  it("loses only the calls of a replica killed mid-call; their streams resumed elsewhere end with an error", async () => {
    const session = await begin(proxy.url);
    const header = { "mcp-session-id": session };
    const calls = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((id) => openAnswer(proxy.url, "POST", header, waitCall(100 + id, 2_000))),
    );
    const firsts = await Promise.all(calls.map((call) => call.next()));
    const victim = 2;
    const onVictim = calls.map((call) => call.headers["x-upstream"] === String(victim));
    expect(onVictim.filter(Boolean).length).toBeGreaterThan(0);
    await replicas[victim]?.kill();
    const outcomes = await Promise.all(calls.map((call) => call.rest()));
    outcomes.forEach(({ events, ending }, index) => {
      if (onVictim[index]) expect(ending).toBe("broken");
      else
        expect(events.at(-1)?.data).toMatchObject({
          id: 101 + index,
          result: { structuredContent: { waited: 2000 } },
        });
    });
    // A lost call's stream, resumed from before its first event through the proxy (on a live
    // replica): the logged event again, then an error answer; no hang.
    const lost = onVictim.indexOf(true);
    const streamId = String(firsts[lost]?.id).split("/")[0];
    const resumed = await openAnswer(proxy.url, "GET", { ...header, "last-event-id": `${streamId}/0` });
    const { events, ending } = await resumed.rest();
    expect(ending).toBe("end");
    expect(events.map((event) => event.data)).toEqual([
      firsts[lost]?.data,
      { jsonrpc: "2.0", id: 101 + lost, error: expect.objectContaining({ code: REQUEST_ENDED_CODE }) },
    ]);
    // The session goes on on the replicas left.
    const after = await postMessage(proxy.url, waitCall(200, 1), header);
    expect(answerOf(after)).toMatchObject({ id: 200, result: { structuredContent: { waited: 1 } } });
  }, 20_000);

  it("reports not ready once Redis cannot be reached", async () => {
    const readyz = (replica: Served) => fetch(new URL("/readyz", replica.url));
    const live = replicas[0] as Served;
    expect((await readyz(live)).status).toBe(200);
    const session = await begin(live.url);
    await redis.stop();
    const answer = await readyz(live);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ status: "unavailable" });
    // A request that needs the shared state is refused as the server's trouble, not hung.
    const ping = await postMessage(
      live.url,
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { "mcp-session-id": session },
    );
    expect(ping.status).toBe(503);
    expect(ping.headers["retry-after"]).toBeDefined();
    expect((await readyz(live)).status).toBe(503);
  }, 15_000);
});
