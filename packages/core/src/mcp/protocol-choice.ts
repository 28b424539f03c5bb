import type { IncomingRequest } from "../rpc/peer.js";
import { isModernFirstFrame } from "./modern.js";

/** The protocol a server speaks on its stdio: Executa (v1 or v2) or the Model Context Protocol. */
export type ServedProtocol = "executa" | "mcp";

/** How a server picks its protocol: forced, or from the client's first frame. */
export type ProtocolSetting = ServedProtocol | "auto";

/** What the first frame a client sent says about it. */
export type FirstFrameDialect = "mcp" | "executa-v2" | "executa-v1";

/** MCP revisions are dates (`2025-06-18`); Executa versions are `"2.0"` / `"1.1"`. */
const DATE_SHAPED = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Recognizes the client from its first frame: `server/discover`, a frame carrying MCP's
 * `_meta["io.modelcontextprotocol/protocolVersion"]` envelope (2026-07-28), or an
 * `initialize` whose `protocolVersion` is date-shaped is an MCP client; any other
 * `initialize` is an Executa v2 host; anything else (`describe`, `invoke`, `health`) an
 * Executa v1 host.
 */
export function detectDialect(first: Pick<IncomingRequest, "method" | "params">): FirstFrameDialect {
  if (isModernFirstFrame(first.method, first.params)) return "mcp";
  if (first.method !== "initialize") return "executa-v1";
  const params = first.params;
  const version =
    typeof params === "object" && params !== null
      ? (params as { protocolVersion?: unknown }).protocolVersion
      : undefined;
  return typeof version === "string" && DATE_SHAPED.test(version) ? "mcp" : "executa-v2";
}

/**
 * The protocol setting of a process: `--mcp` among its arguments or `EXECUTA_PROTOCOL=mcp`
 * forces MCP, `EXECUTA_PROTOCOL=executa` forces Executa, else the first frame decides.
 */
export function protocolFromEnvironment(
  argv: readonly string[] = process.argv,
  env: NodeJS.ProcessEnv = process.env,
): ProtocolSetting {
  if (argv.slice(1).includes("--mcp")) return "mcp";
  const named = env.EXECUTA_PROTOCOL?.trim().toLowerCase();
  if (named === "mcp" || named === "executa") return named;
  return "auto";
}
