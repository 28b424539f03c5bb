import type { Redis } from "ioredis";
import type { RateDecision, RateLimit, RateLimiter } from "./rate-limiter.js";

/**
 * The module name kept out of the bundler's sight: a plugin bundle that never limits on
 * Redis must not carry `ioredis`; one that does resolves it at run time.
 */
const IOREDIS_MODULE = "ioredis";

/** Where the buckets live in Redis: one hash per caller under this prefix. */
const KEY_PREFIX = "executa:mcp:rate:";

/**
 * One token bucket taken from atomically, on the Redis server's clock so that replicas
 * whose clocks differ still agree. KEYS[1] the bucket; ARGV: capacity, tokens per
 * millisecond, milliseconds after which an untouched bucket is full again (its expiry).
 * Returns { allowed (1 or 0), milliseconds until one token is back }. Written without
 * indentation: a minified bundle keeps a template literal's lines as they are.
 */
const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * per_ms)
local allowed = 0
local wait_ms = 0
if tokens >= 1 then
tokens = tokens - 1
allowed = 1
else
wait_ms = math.ceil((1 - tokens) / per_ms)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return { allowed, wait_ms }
`;

type RedisWithTake = Redis & {
  executaTakeToken(key: string, capacity: number, perMs: string, ttlMs: number): Promise<[number, number]>;
};

/** Token buckets on a Redis server, shared by every replica that names it. */
export class RedisRateLimiter implements RateLimiter {
  private readonly perMs: number;
  private readonly ttlMs: number;

  private constructor(
    private readonly redis: RedisWithTake,
    private readonly limit: RateLimit,
  ) {
    this.perMs = limit.requests / (limit.perSeconds * 1000);
    this.ttlMs = limit.perSeconds * 1000;
  }

  /** Loads `ioredis` and connects to `url`; throws when either fails. */
  static async connect(limit: RateLimit, url: string): Promise<RedisRateLimiter> {
    const { Redis: Client } = (await loadIoredis()) as typeof import("ioredis");
    // A request waits for Redis at most one retry: a limiter that cannot answer refuses
    // (503) rather than hold every request while Redis is away.
    const redis = new Client(url, { maxRetriesPerRequest: 1, lazyConnect: true });
    redis.defineCommand("executaTakeToken", { numberOfKeys: 1, lua: TAKE_SCRIPT });
    let lastError: Error | undefined;
    redis.on("error", (error: Error) => {
      // Reported to the request that needed Redis; ioredis reconnects on its own.
      lastError = error;
    });
    try {
      await redis.connect();
    } catch (error) {
      redis.disconnect();
      const cause = lastError ?? (error as Error);
      throw new Error(`cannot reach Redis at ${withoutPassword(url)} for the rate limit: ${cause.message}`);
    }
    return new RedisRateLimiter(redis as RedisWithTake, limit);
  }

  async take(callerKey: string): Promise<RateDecision> {
    const [allowed, waitMs] = await this.redis.executaTakeToken(
      KEY_PREFIX + callerKey,
      this.limit.requests,
      String(this.perMs),
      this.ttlMs,
    );
    if (allowed === 1) return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** The URL as it may be logged: its password replaced. */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== "") parsed.password = "***";
  return parsed.href;
}

async function loadIoredis(): Promise<unknown> {
  try {
    return await import(IOREDIS_MODULE);
  } catch (error) {
    throw new Error(
      `rate limits on Redis need the ioredis package next to the plugin (npm install ioredis@5): ${(error as Error).message.split("\n")[0]}`,
    );
  }
}
