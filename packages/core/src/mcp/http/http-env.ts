import { MCP_HTTP_DEFAULT_LIMITS, type McpHttpLimits } from "./connection-limits.js";
import {
  MCP_HTTP_ALLOWED_HOSTS_ENV,
  MCP_HTTP_LIMITS_ENV,
  MCP_HTTP_TOKEN_ENV,
  MCP_HTTP_TRUSTED_NETWORK_ENV,
} from "./http-address.js";
import { MCP_RATE_LIMIT_ENV, parseRateLimit, type RateLimitSettings } from "./rate-limit.js";
import { MCP_AUTH_ISSUER_ENV, MCP_AUTH_RESOURCE_ENV, type McpAuthSettings } from "./resource-server.js";

/** `redis://` URL of the Redis the replicas share their legacy sessions on (see `McpHttpOptions.redisUrl`). */
export const MCP_REDIS_URL_ENV = "EXECUTA_MCP_REDIS_URL";

/** An `EXECUTA_MCP_HTTP_*` environment variable whose value cannot be used. */
export class McpHttpSettingError extends Error {
  override readonly name = "McpHttpSettingError";
  /** Stable code for scripts. */
  readonly code = "mcp_http_setting";
}

/** What `--mcp-http` takes from the environment. */
export interface McpHttpEnvSettings {
  readonly token: string | undefined;
  /** The OAuth 2.1 resource server settings, when an issuer is configured. */
  readonly auth: McpAuthSettings | undefined;
  readonly allowedHosts: readonly string[];
  readonly trustedNetwork: boolean;
  readonly limits: Partial<McpHttpLimits>;
  /** The shared Redis, when one is configured. */
  readonly redisUrl: string | undefined;
  /** The per-caller rate limit, when one is set (on the shared Redis when there is one). */
  readonly rateLimit: RateLimitSettings | undefined;
}

/**
 * Reads the `EXECUTA_MCP_HTTP_*` variables. Throws {@link McpHttpSettingError} for a token
 * set empty (which would otherwise mean "no authentication" without a word), a trusted-network
 * value other than `1`/`true`/`0`/`false`, a limit that is unknown or not a positive integer,
 * an issuer without a resource (or the reverse), either not an http(s) URL, an issuer
 * together with a static token (two rules for one door: choose one), a Redis URL that
 * is not `redis://` or `rediss://`, and a rate limit that is not `COUNT/UNIT`.
 */
export function mcpHttpSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): McpHttpEnvSettings {
  const token = env[MCP_HTTP_TOKEN_ENV];
  if (token !== undefined && token.trim() === "") {
    throw new McpHttpSettingError(
      `${MCP_HTTP_TOKEN_ENV} is set but empty; give it a secret, or unset it to serve without a token`,
    );
  }
  const auth = authSettings(env);
  if (auth && token !== undefined) {
    throw new McpHttpSettingError(
      `${MCP_HTTP_TOKEN_ENV} and ${MCP_AUTH_ISSUER_ENV} are both set: use the static token or the issuer's access tokens, not both`,
    );
  }
  const sharedRedis = redisUrl(env[MCP_REDIS_URL_ENV]);
  return {
    token,
    auth,
    allowedHosts: env[MCP_HTTP_ALLOWED_HOSTS_ENV]?.split(",") ?? [],
    trustedNetwork: flag(MCP_HTTP_TRUSTED_NETWORK_ENV, env[MCP_HTTP_TRUSTED_NETWORK_ENV]),
    limits: limits(env[MCP_HTTP_LIMITS_ENV]),
    redisUrl: sharedRedis,
    rateLimit: rateLimit(env, sharedRedis),
  };
}

function flag(name: string, value: string | undefined): boolean {
  const text = value?.trim().toLowerCase() ?? "";
  if (text === "" || text === "0" || text === "false") return false;
  if (text === "1" || text === "true") return true;
  throw new McpHttpSettingError(`${name} must be 1 or true (or 0, false), got ${JSON.stringify(value)}`);
}

function limits(text: string | undefined): Partial<McpHttpLimits> {
  const given: Partial<Record<keyof McpHttpLimits, number>> = {};
  const names = Object.keys(MCP_HTTP_DEFAULT_LIMITS);
  for (const pair of (text ?? "").split(",").filter((part) => part.trim() !== "")) {
    const [name = "", value = ""] = pair.split("=").map((part) => part.trim());
    const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!names.includes(name) || !Number.isSafeInteger(number) || number <= 0) {
      throw new McpHttpSettingError(
        `${MCP_HTTP_LIMITS_ENV}: ${JSON.stringify(pair)} is not name=positive integer with a name among ${names.join(", ")}`,
      );
    }
    given[name as keyof McpHttpLimits] = number;
  }
  return given;
}

function authSettings(env: NodeJS.ProcessEnv): McpAuthSettings | undefined {
  const issuer = env[MCP_AUTH_ISSUER_ENV]?.trim() || undefined;
  const resource = env[MCP_AUTH_RESOURCE_ENV]?.trim() || undefined;
  if (issuer === undefined && resource === undefined) return undefined;
  if (issuer === undefined || resource === undefined) {
    throw new McpHttpSettingError(
      `${MCP_AUTH_ISSUER_ENV} and ${MCP_AUTH_RESOURCE_ENV} go together: set both (the authorization server, and the URL clients reach this endpoint at) or neither`,
    );
  }
  for (const [name, value] of [
    [MCP_AUTH_ISSUER_ENV, issuer],
    [MCP_AUTH_RESOURCE_ENV, resource],
  ] as const) {
    if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
      throw new McpHttpSettingError(`${name} must be an http(s) URL, got ${JSON.stringify(value)}`);
    }
  }
  return { issuer, resource };
}

function redisUrl(value: string | undefined): string | undefined {
  const url = value?.trim() || undefined;
  if (url === undefined) return undefined;
  if (!URL.canParse(url) || !/^rediss?:$/.test(new URL(url).protocol)) {
    throw new McpHttpSettingError(
      `${MCP_REDIS_URL_ENV} must be a redis:// or rediss:// URL, got ${JSON.stringify(url.replace(/\/\/[^@/]*@/, "//***@"))}`,
    );
  }
  return url;
}

function rateLimit(env: NodeJS.ProcessEnv, redisUrl: string | undefined): RateLimitSettings | undefined {
  const text = env[MCP_RATE_LIMIT_ENV];
  if (text === undefined || text.trim() === "") return undefined;
  const limit = parseRateLimit(text);
  if (limit === undefined) {
    throw new McpHttpSettingError(
      `${MCP_RATE_LIMIT_ENV} must be COUNT/UNIT with a positive COUNT and a UNIT among s, min, hour (e.g. 60/min), got ${JSON.stringify(text)}`,
    );
  }
  return redisUrl === undefined ? { limit } : { limit, redisUrl };
}
