import { MCP_HTTP_DEFAULT_LIMITS, type McpHttpLimits } from "./connection-limits.js";
import {
  MCP_HTTP_ALLOWED_HOSTS_ENV,
  MCP_HTTP_LIMITS_ENV,
  MCP_HTTP_TOKEN_ENV,
  MCP_HTTP_TRUSTED_NETWORK_ENV,
} from "./http-address.js";

/** An `EXECUTA_MCP_HTTP_*` environment variable whose value cannot be used. */
export class McpHttpSettingError extends Error {
  override readonly name = "McpHttpSettingError";
  /** Stable code for scripts. */
  readonly code = "mcp_http_setting";
}

/** What `--mcp-http` takes from the environment. */
export interface McpHttpEnvSettings {
  readonly token: string | undefined;
  readonly allowedHosts: readonly string[];
  readonly trustedNetwork: boolean;
  readonly limits: Partial<McpHttpLimits>;
}

/**
 * Reads the `EXECUTA_MCP_HTTP_*` variables. Throws {@link McpHttpSettingError} for a token
 * set empty (which would otherwise mean "no authentication" without a word), a trusted-network
 * value other than `1`/`true`/`0`/`false`, and a limit that is unknown or not a positive integer.
 */
export function mcpHttpSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): McpHttpEnvSettings {
  const token = env[MCP_HTTP_TOKEN_ENV];
  if (token !== undefined && token.trim() === "") {
    throw new McpHttpSettingError(
      `${MCP_HTTP_TOKEN_ENV} is set but empty; give it a secret, or unset it to serve without a token`,
    );
  }
  return {
    token,
    allowedHosts: env[MCP_HTTP_ALLOWED_HOSTS_ENV]?.split(",") ?? [],
    trustedNetwork: flag(MCP_HTTP_TRUSTED_NETWORK_ENV, env[MCP_HTTP_TRUSTED_NETWORK_ENV]),
    limits: limits(env[MCP_HTTP_LIMITS_ENV]),
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
