import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { mcpHttpSettingsFromEnv } from "../../../src/mcp/http/http-env.js";
import {
  callerKey,
  describeRateLimit,
  MemoryRateLimiter,
  parseRateLimit,
} from "../../../src/mcp/http/rate-limit.js";

describe("the in-memory token bucket", () => {
  it("lets a caller spend the whole limit at once, then one request per refill, with the wait until then", async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter({ requests: 3, perSeconds: 60 }, () => now);
    for (let i = 0; i < 3; i += 1)
      expect(await limiter.take("a")).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 20 });
    now += 15_000;
    expect(await limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 5 });
    now += 5_000; // one token back after 60 s / 3
    expect(await limiter.take("a")).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect((await limiter.take("a")).allowed).toBe(false);
  });

  it("keeps one bucket per caller: one caller over its limit does not touch another's", async () => {
    const limiter = new MemoryRateLimiter({ requests: 1, perSeconds: 1 }, () => 0);
    expect((await limiter.take("a")).allowed).toBe(true);
    expect((await limiter.take("a")).allowed).toBe(false);
    expect((await limiter.take("b")).allowed).toBe(true);
  });

  it("refills no further than the limit, however long a caller was away", async () => {
    let now = 0;
    const limiter = new MemoryRateLimiter({ requests: 2, perSeconds: 1 }, () => now);
    await limiter.take("a");
    now += 3_600_000;
    expect((await limiter.take("a")).allowed).toBe(true);
    expect((await limiter.take("a")).allowed).toBe(true);
    expect((await limiter.take("a")).allowed).toBe(false);
  });

  it("asks for at least one second, the unit Retry-After counts in", async () => {
    const limiter = new MemoryRateLimiter({ requests: 100, perSeconds: 1 }, () => 0);
    for (let i = 0; i < 100; i += 1) await limiter.take("a");
    expect(await limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it("forgets callers whose bucket refilled once 10,000 are kept, so a flood of addresses cannot grow it without bound", async () => {
    let now = 0;
    const limiter = new MemoryRateLimiter({ requests: 1, perSeconds: 1 }, () => now);
    for (let i = 0; i < 10_000; i += 1) await limiter.take(`old-${i}`);
    now += 1_000;
    await limiter.take("new");
    expect(limiter.size).toBe(1);
  });
});

describe("EXECUTA_MCP_RATE_LIMIT", () => {
  it("reads COUNT/UNIT in seconds, minutes or hours", () => {
    expect(parseRateLimit("60/min")).toEqual({ requests: 60, perSeconds: 60 });
    expect(parseRateLimit(" 5 / s ")).toEqual({ requests: 5, perSeconds: 1 });
    expect(parseRateLimit("1000/HOUR")).toEqual({ requests: 1000, perSeconds: 3600 });
    for (const bad of ["", "60", "0/min", "-1/min", "1.5/s", "60/day", "min/60"]) {
      expect({ bad, limit: parseRateLimit(bad) }).toEqual({ bad, limit: undefined });
    }
    expect(describeRateLimit({ requests: 60, perSeconds: 60 })).toBe("60 requests per 60 s per caller");
  });

  it("is off unless set; set, it limits in memory, or on Redis with EXECUTA_MCP_REDIS_URL", () => {
    expect(mcpHttpSettingsFromEnv({}).rateLimit).toBeUndefined();
    expect(mcpHttpSettingsFromEnv({ EXECUTA_MCP_REDIS_URL: "redis://r:6379" }).rateLimit).toBeUndefined();
    expect(mcpHttpSettingsFromEnv({ EXECUTA_MCP_RATE_LIMIT: "60/min" }).rateLimit).toEqual({
      limit: { requests: 60, perSeconds: 60 },
    });
    expect(
      mcpHttpSettingsFromEnv({ EXECUTA_MCP_RATE_LIMIT: "60/min", EXECUTA_MCP_REDIS_URL: "redis://r:6379" })
        .rateLimit,
    ).toEqual({ limit: { requests: 60, perSeconds: 60 }, redisUrl: "redis://r:6379" });
  });

  it("refuses a value that is not a rate, or a Redis address that is not a redis URL, naming the variable and the form", () => {
    expect(() => mcpHttpSettingsFromEnv({ EXECUTA_MCP_RATE_LIMIT: "lots" })).toThrow(
      /EXECUTA_MCP_RATE_LIMIT must be COUNT\/UNIT .*got "lots"/,
    );
    expect(() =>
      mcpHttpSettingsFromEnv({ EXECUTA_MCP_RATE_LIMIT: "5/s", EXECUTA_MCP_REDIS_URL: "localhost:6379" }),
    ).toThrow(/EXECUTA_MCP_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL, got "localhost:6379"/);
  });
});

describe("the caller a request counts against", () => {
  const from = (address: string) => ({ socket: { remoteAddress: address } }) as IncomingMessage;

  it("is the access token's subject when an issuer's token was verified, whatever the address", () => {
    const grant = { subject: "alice", scopes: new Set<string>() };
    expect(callerKey(from("10.0.0.1"), grant)).toBe("sub:alice");
    expect(callerKey(from("10.0.0.2"), grant)).toBe("sub:alice");
  });

  it("is the client's address without a grant, or with a token naming no subject", () => {
    expect(callerKey(from("10.0.0.1"), undefined)).toBe("addr:10.0.0.1");
    expect(callerKey(from("::1"), { subject: undefined, scopes: new Set() })).toBe("addr:::1");
  });
});
