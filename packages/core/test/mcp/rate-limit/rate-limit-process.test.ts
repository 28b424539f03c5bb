import { request as httpRequest } from "node:http";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { requirePrerequisite, skipWithout } from "../../../../../tooling/test-support/src/prerequisite.js";
import {
  REDIS_SERVER_MISSING,
  type RedisServer,
  redisServerAvailable,
  startRedisServer,
} from "../../../../../tooling/test-support/src/redis-server.js";
import { createLogger } from "../../../src/log/logger.js";
import { serveMcpHttp } from "../../../src/mcp/http/http-server.js";
import { answerOf, postMessage, type Served, serveHttpFixture } from "../http-harness.js";

// Per-caller rate limits of `--mcp-http` in child processes over real sockets: in memory,
// and on a real redis-server shared by two server processes.
const running: Served[] = [];

afterEach(async () => {
  for (const served of running.splice(0)) await served.kill();
});

async function serve(env: Record<string, string>): Promise<Served> {
  const served = await serveHttpFixture(["--mcp-http", "127.0.0.1:0"], env);
  running.push(served);
  return served;
}

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/** The status of a GET. */
function getStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpRequest(url, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    })
      .on("error", reject)
      .end();
  });
}

/** Expects `answer` to be the 429 of a limit of `limit`. */
function expectLimited(answer: Awaited<ReturnType<typeof postMessage>>, limit: string): void {
  expect(answer.status).toBe(429);
  expect(Number(answer.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  expect(answerOf(answer)).toEqual({
    jsonrpc: "2.0",
    id: null,
    error: {
      code: -32000,
      message: expect.stringContaining(`the rate limit is ${limit} (EXECUTA_MCP_RATE_LIMIT)`),
    },
  });
}

describe("EXECUTA_MCP_RATE_LIMIT in memory", () => {
  it("answers 429 with Retry-After and a JSON-RPC error naming the limit once a caller used it up, never on health, and keeps serving", async () => {
    const served = await serve({ EXECUTA_MCP_RATE_LIMIT: "3/min" });
    for (let i = 0; i < 3; i += 1) expect((await postMessage(served.url, initialize)).status).toBe(200);
    expectLimited(await postMessage(served.url, initialize), "3 requests per 60 s per caller");
    for (let i = 0; i < 5; i += 1) {
      expect(await getStatus(new URL("/healthz", served.url).href)).toBe(200);
      expect(await getStatus(new URL("/readyz", served.url).href)).toBe(200);
    }
    expect((await postMessage(served.url, initialize)).status).toBe(429);
    expect(served.child.exitCode).toBeNull();
  });

  it("limits nothing when unset", async () => {
    const served = await serve({});
    for (let i = 0; i < 20; i += 1) expect((await postMessage(served.url, initialize)).status).toBe(200);
  });
});

describe("EXECUTA_MCP_RATE_LIMIT with a Redis server that cannot be reached", () => {
  it("stops the server at start, saying where it looked (password hidden) and why", async () => {
    const start = serveHttpFixture(["--mcp-http", "127.0.0.1:0"], {
      EXECUTA_MCP_RATE_LIMIT: "5/s",
      EXECUTA_MCP_REDIS_URL: "redis://user:secret@127.0.0.1:1",
    });
    await expect(start).rejects.toThrow(
      /cannot reach Redis at redis:\/\/user:\*\*\*@127\.0\.0\.1:1\/? for the rate limit: connect ECONNREFUSED/,
    );
  });
});

describe.skipIf(skipWithout(redisServerAvailable()))("EXECUTA_MCP_RATE_LIMIT on Redis", () => {
  let redis: RedisServer;

  beforeAll(async () => {
    requirePrerequisite(redisServerAvailable(), REDIS_SERVER_MISSING);
    redis = await startRedisServer();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  // Every test's caller is 127.0.0.1: each starts with no bucket.
  beforeEach(async () => {
    const admin = new Redis(redis.url);
    await admin.flushall();
    admin.disconnect();
  });

  it("makes two server processes draw on one bucket per caller", async () => {
    const env = { EXECUTA_MCP_RATE_LIMIT: "4/hour", EXECUTA_MCP_REDIS_URL: redis.url };
    const [a, b] = [await serve(env), await serve(env)];
    for (const served of [a, b, a, b]) expect((await postMessage(served.url, initialize)).status).toBe(200);
    // Either process alone has seen two requests; together they used up the four.
    expectLimited(await postMessage(a.url, initialize), "4 requests per 3600 s per caller");
    expectLimited(await postMessage(b.url, initialize), "4 requests per 3600 s per caller");
    expect(await getStatus(new URL("/healthz", b.url).href)).toBe(200);
  });

  it("admits exactly the limit when both processes are asked at once (the bucket is taken from atomically)", async () => {
    const env = { EXECUTA_MCP_RATE_LIMIT: "20/hour", EXECUTA_MCP_REDIS_URL: redis.url };
    const [a, b] = [await serve(env), await serve(env)];
    const ping = { jsonrpc: "2.0", method: "notifications/initialized" };
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => postMessage((i % 2 === 0 ? a : b).url, ping)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40);
    expect(statuses.filter((status) => status !== 429)).toHaveLength(20);
  });

  it("lets go of its Redis connection when the server closes", async () => {
    const admin = new Redis(redis.url);
    const connections = async () =>
      String(await admin.client("LIST"))
        .trim()
        .split("\n").length;
    try {
      const before = await connections();
      const server = await serveMcpHttp(
        { openMcpSession: () => expect.unreachable("no session is opened"), stopping: false },
        {
          address: { host: "127.0.0.1", port: 0 },
          log: createLogger("rate-limit-test", { write: () => {} }),
          rateLimit: { limit: { requests: 5, perSeconds: 1 }, redisUrl: redis.url },
        },
      );
      expect(await connections()).toBe(before + 1);
      await server.close();
      while ((await connections()) > before) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await connections()).toBe(before);
    } finally {
      admin.disconnect();
    }
  });

  it("answers 503 while Redis is unreachable and keeps serving health", async () => {
    const own = await startRedisServer();
    const served = await serve({ EXECUTA_MCP_RATE_LIMIT: "100/min", EXECUTA_MCP_REDIS_URL: own.url });
    expect((await postMessage(served.url, initialize)).status).toBe(200);
    await own.stop();
    const answer = await postMessage(served.url, initialize);
    expect(answer.status).toBe(503);
    expect(answerOf(answer)).toMatchObject({ error: { message: expect.stringMatching(/rate limiter/) } });
    expect(await getStatus(new URL("/healthz", served.url).href)).toBe(200);
    expect(served.stderr()).toMatch(/rate limiter failed/);
  });
});
