import type { ReverseFamilyName } from "../wire/capability-families.js";

/** One reverse call handed to an {@link McpFallback}. */
export interface McpFallbackCall {
  /** e.g. `storage/set`. */
  readonly method: string;
  /**
   * The params as a capability client sent them: `context.invoke_id` of the call's
   * invoke and `_clientTimeoutS` included.
   */
  readonly params: Record<string, unknown>;
  /** The manifest's `name`, e.g. to keep one plugin's data apart from another's. */
  readonly pluginName: string;
  /** The call's time budget, when the capability client gave one. */
  readonly timeoutMs?: number;
  /** Aborts when the call's invoke ends or the caller gives up. */
  readonly signal?: AbortSignal;
}

/**
 * Answers, when serving MCP, the reverse calls of the families MCP has no equivalent for
 * (storage and files, typically from a local store: `mcpLocalFallback` of
 * `@executa/host/local`). Without one, those calls fail with the family's not-negotiated
 * error. Results and thrown `RpcError`s are read exactly as a host's answers would be.
 */
export interface McpFallback {
  /** The families it answers; calls of any other family are still refused. */
  readonly families: readonly ReverseFamilyName[];
  /** Answers one call of one of `families`. */
  handle(call: McpFallbackCall): unknown;
  /**
   * Whether it can answer now (its database reachable), for a readiness probe such as
   * `/readyz`; absent means always.
   */
  ready?(pluginName: string): Promise<boolean>;
  /** Releases what it holds (a database, a server); called once when the plugin server stops. */
  close?(): void | Promise<void>;
}

/** How a plugin behaves when served over MCP. */
export interface McpServeOptions {
  /**
   * Answers the reverse calls MCP cannot carry. Default: none, so storage, files and the
   * other non-MCP families fail with their not-negotiated error.
   */
  fallback?: McpFallback;
}

/**
 * The experimental MCP server capability naming the families a server's fallback answers
 * (`{ families: ["storage", "files"] }`), so a client (and the build, before it packs an
 * `.mcpb`) can tell a plugin whose storage works under MCP from one whose storage fails.
 */
export const MCP_FALLBACK_CAPABILITY = "io.executa/fallback";

/** The server capabilities an MCP session announces: tools, and the fallback's families when it has one. */
export function mcpServerCapabilities(fallback: McpFallback | undefined): McpServerCapabilities {
  const capabilities: McpServerCapabilities = { tools: { listChanged: false } };
  if (fallback)
    capabilities.experimental = { [MCP_FALLBACK_CAPABILITY]: { families: [...fallback.families] } };
  return capabilities;
}

/** The `capabilities` of MCP `initialize` and `server/discover` results. */
export interface McpServerCapabilities {
  tools: { listChanged: boolean };
  experimental?: Record<string, unknown>;
}
