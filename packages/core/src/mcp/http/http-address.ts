/** The plugin binary's flag that serves MCP over Streamable HTTP instead of stdio. */
export const MCP_HTTP_FLAG = "--mcp-http";

/** Environment variable holding the bearer token every HTTP request must carry, when set (never empty). */
export const MCP_HTTP_TOKEN_ENV = "EXECUTA_MCP_HTTP_TOKEN";

/**
 * Environment variable that, set to `1` or `true`, lets `--mcp-http` bind an interface other
 * machines reach without a token: every machine on that network may then call the tools.
 */
export const MCP_HTTP_TRUSTED_NETWORK_ENV = "EXECUTA_MCP_HTTP_TRUSTED_NETWORK";

/**
 * Environment variable overriding limits of the endpoint, comma-separated `name=value`
 * pairs named as the fields of `McpHttpLimits` (e.g. `maxSessions=100,bodyTimeoutMs=10000`).
 */
export const MCP_HTTP_LIMITS_ENV = "EXECUTA_MCP_HTTP_LIMITS";

/**
 * Environment variable listing, comma-separated, host names accepted in `Host` and
 * `Origin` besides localhost, 127.0.0.1 and [::1] (e.g. the name a LAN bind is reached by).
 */
export const MCP_HTTP_ALLOWED_HOSTS_ENV = "EXECUTA_MCP_HTTP_ALLOWED_HOSTS";

/** The path MCP is served on. */
export const MCP_HTTP_PATH = "/mcp";

/** Where `--mcp-http` listens. */
export interface McpHttpAddress {
  /** Interface to bind: 127.0.0.1 unless given. */
  readonly host: string;
  /** TCP port; 0 picks a free one (the chosen port is logged). */
  readonly port: number;
}

/** A `--mcp-http` value that is not `[HOST:]PORT`. */
export class McpHttpAddressError extends Error {
  override readonly name = "McpHttpAddressError";
  /** Stable code for scripts. */
  readonly code = "mcp_http_address";
}

/**
 * Reads `[HOST:]PORT`: `8080`, `0.0.0.0:8080`, `localhost:0`, `[::1]:8080`. Throws
 * {@link McpHttpAddressError} naming the accepted forms otherwise.
 */
export function parseMcpHttpAddress(text: string): McpHttpAddress {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+):)?(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65535) {
    throw new McpHttpAddressError(
      `${MCP_HTTP_FLAG} expects [HOST:]PORT, got ${JSON.stringify(text)}; ` +
        `write e.g. ${MCP_HTTP_FLAG} 8080 or ${MCP_HTTP_FLAG} 127.0.0.1:8080 (port 0 picks a free one)`,
    );
  }
  const host = match[1]?.replace(/^\[(.*)\]$/, "$1") ?? "127.0.0.1";
  return { host, port };
}

/**
 * The address `--mcp-http [HOST:]PORT` (or `--mcp-http=[HOST:]PORT`) asks for among the
 * process arguments; undefined without the flag.
 */
export function mcpHttpFromArgv(argv: readonly string[] = process.argv): McpHttpAddress | undefined {
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg.startsWith(`${MCP_HTTP_FLAG}=`)) return parseMcpHttpAddress(arg.slice(MCP_HTTP_FLAG.length + 1));
    if (arg === MCP_HTTP_FLAG) return parseMcpHttpAddress(args[i + 1] ?? "");
  }
  return undefined;
}
