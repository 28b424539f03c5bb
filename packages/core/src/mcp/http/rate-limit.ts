import type { IncomingMessage } from "node:http";
import type { Logger } from "../../log/logger.js";
import type { RateDecision, RateLimit, RateLimiter } from "./rate-limiter.js";
import type { Grant } from "./resource-server.js";

export type { RateDecision, RateLimit, RateLimiter } from "./rate-limiter.js";

/**
 * Environment variable setting the requests each caller may make, as `COUNT/UNIT`
 * (`60/min`, `5/s`, `1000/hour`): a token bucket holding COUNT that refills COUNT per
 * UNIT. Unset, nothing is limited and nothing is loaded.
 */
export const MCP_RATE_LIMIT_ENV = "EXECUTA_MCP_RATE_LIMIT";

/** How a rate limit is enforced: in this process, or on Redis shared by every replica. */
export interface RateLimitSettings {
  readonly limit: RateLimit;
  /** The Redis server holding the buckets; each process keeps its own when absent. */
  readonly redisUrl?: string;
}

const UNIT_SECONDS: Readonly<Record<string, number>> = {
  s: 1,
  sec: 1,
  second: 1,
  m: 60,
  min: 60,
  minute: 60,
  h: 3600,
  hour: 3600,
};

/** Parses `COUNT/UNIT` (`60/min`); undefined when it is not one. */
export function parseRateLimit(text: string): RateLimit | undefined {
  const match = /^\s*(\d+)\s*\/\s*([a-z]+)\s*$/i.exec(text);
  const requests = Number(match?.[1]);
  const perSeconds = UNIT_SECONDS[match?.[2]?.toLowerCase() ?? ""];
  if (!Number.isSafeInteger(requests) || requests <= 0 || perSeconds === undefined) return undefined;
  return { requests, perSeconds };
}

/** The limit as people read it: "60 requests per 60 s per caller". */
export function describeRateLimit(limit: RateLimit): string {
  return `${limit.requests} requests per ${limit.perSeconds} s per caller`;
}

/**
 * Who a request counts against: the access token's subject when an issuer's tokens are
 * required, else the client's address. A static token names no one (every client holds the
 * same one), so it does not separate callers; behind a proxy, without an issuer, every
 * request comes from the proxy's address and all callers share its bucket.
 */
export function callerKey(req: IncomingMessage, grant: Grant | undefined): string {
  if (grant?.subject !== undefined) return `sub:${grant.subject}`;
  return `addr:${req.socket.remoteAddress ?? "unknown"}`;
}

/** A bucket of one caller: the tokens left when last counted, and when that was. */
interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept before full ones (callers idle for a whole period) are dropped. */
const MAX_IDLE_BUCKETS = 10_000;

/**
 * Token buckets in this process's memory: each caller starts with `requests` tokens, one
 * taken per request, refilled continuously at `requests` per `perSeconds`.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  /** @param now - the clock, in milliseconds (injected by tests). */
  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = limit.requests / (limit.perSeconds * 1000);
  }

  take(callerKey: string): Promise<RateDecision> {
    const now = this.now();
    const bucket = this.buckets.get(callerKey) ?? { tokens: this.limit.requests, at: now };
    bucket.tokens = Math.min(this.limit.requests, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    if (!this.buckets.has(callerKey)) {
      if (this.buckets.size >= MAX_IDLE_BUCKETS) this.dropFull(now);
      this.buckets.set(callerKey, bucket);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return Promise.resolve({ allowed: true, retryAfterSeconds: 0 });
    }
    const waitMs = (1 - bucket.tokens) / this.perMs;
    return Promise.resolve({ allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) });
  }

  /** Buckets kept now. */
  get size(): number {
    return this.buckets.size;
  }

  close(): Promise<void> {
    this.buckets.clear();
    return Promise.resolve();
  }

  /** Forgets callers whose bucket has refilled: they would start full anyway. */
  private dropFull(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.perMs >= this.limit.requests) this.buckets.delete(key);
    }
  }
}

/**
 * The limiter the settings ask for: on Redis when a URL is given (its client loaded only
 * then), else in memory.
 */
export async function createRateLimiter(settings: RateLimitSettings): Promise<RateLimiter> {
  if (settings.redisUrl === undefined) return new MemoryRateLimiter(settings.limit);
  const { RedisRateLimiter } = await import("./rate-limit-redis.js");
  return RedisRateLimiter.connect(settings.limit, settings.redisUrl);
}

/** A request refused by the rate limit (429), or because the limiter cannot count it (503). */
export interface RateRefusal {
  readonly status: 429 | 503;
  /** Names the limit and when to retry, for the JSON-RPC error of the answer. */
  readonly message: string;
  readonly retryAfterSeconds: number;
}

/** What the HTTP endpoint asks of the rate limit: may this caller's request go on? */
export class RateGate {
  private constructor(
    private readonly limiter: RateLimiter,
    private readonly limit: RateLimit,
    private readonly log: Logger,
  ) {}

  /** The gate the settings ask for; throws when its limiter cannot be had (Redis unreachable). */
  static async open(settings: RateLimitSettings, log: Logger): Promise<RateGate> {
    return new RateGate(await createRateLimiter(settings), settings.limit, log);
  }

  /** Takes one request of `callerKey`: undefined when it may go on, else its refusal. */
  async admit(callerKey: string): Promise<RateRefusal | undefined> {
    let decision: RateDecision;
    try {
      decision = await this.limiter.take(callerKey);
    } catch (error) {
      this.log.error(`rate limiter failed: ${(error as Error).message}`);
      return {
        status: 503,
        message: "Service Unavailable: the rate limiter cannot answer; retry later",
        retryAfterSeconds: 5,
      };
    }
    if (decision.allowed) return undefined;
    return {
      status: 429,
      message: `Too Many Requests: the rate limit is ${describeRateLimit(this.limit)} (${MCP_RATE_LIMIT_ENV}); retry after ${decision.retryAfterSeconds} s`,
      retryAfterSeconds: decision.retryAfterSeconds,
    };
  }

  /** Lets go of the limiter's connection. */
  close(): Promise<void> {
    return this.limiter.close();
  }
}
