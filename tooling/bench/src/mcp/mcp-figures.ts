import { type Response, SubjectProcess } from "../driver/subject-process.js";
import { type BurstProtocol, ENCODE_ARGS } from "../figures/invoke-rate.js";
import type { ProcessSubject } from "../figures/schedule.js";
import type { McpSubject } from "./mcp-subjects.js";

/** The two MCP eras a client may speak: 2025-era (`initialize`) and 2026-07-28 (`server/discover`, `_meta` per request). */
export type McpEra = "legacy" | "modern";

/** The eras, in table order. */
export const MCP_ERAS: readonly McpEra[] = ["legacy", "modern"];

/** The revision of the modern era the bench speaks. */
export const MODERN_REVISION = "2026-07-28";

const CLIENT_INFO = Object.freeze({ name: "executa-bench", version: "1.0.0" });

/** The legacy `initialize` params of every session: the 2025 revision current clients ask for. */
export const MCP_INITIALIZE = Object.freeze({
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: CLIENT_INFO,
});

/** The per-request `_meta` envelope of the modern era (revision, capabilities, client). */
export const MODERN_META = Object.freeze({
  "io.modelcontextprotocol/protocolVersion": MODERN_REVISION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
});

/** The params of a request in `era`: the modern era carries its envelope on every request. */
export function eraParams(era: McpEra, params: Record<string, unknown> = {}): Record<string, unknown> {
  return era === "modern" ? { ...params, _meta: MODERN_META } : params;
}

/** The `tools/call` params of the throughput bursts: the invoke figures' base64_encode. */
export function callParams(era: McpEra): Record<string, unknown> {
  return eraParams(era, { name: "base64_encode", arguments: ENCODE_ARGS });
}

/**
 * The opening of a session in `era`, written without waiting: `initialize` +
 * `notifications/initialized` (legacy) or `server/discover` (modern). Resolves when the
 * server has answered it.
 */
function open(process: SubjectProcess, subject: ProcessSubject, era: McpEra): Promise<unknown> {
  if (era === "modern") {
    return process
      .request("server/discover", eraParams(era))
      .then((r) => expectAnswer(subject, "server/discover", r));
  }
  const initialized = process.request("initialize", MCP_INITIALIZE);
  process.notify("notifications/initialized");
  return initialized.then((r) => expectAnswer(subject, "initialize", r));
}

/**
 * One cold start under MCP in `era`: from `spawn` to the `tools/list` answer (with
 * base64_encode in it) read, in ms; the opening and `tools/list` are written at once right
 * after spawning, as a client that does not wait does (they wait in the pipe until the
 * server reads them).
 * @throws Error saying how the subject failed to serve MCP in that era.
 */
export async function coldStartOnce(subject: McpSubject, era: McpEra = "legacy"): Promise<number> {
  const process = new SubjectProcess(subject.id, subject.line);
  try {
    const opened = open(process, subject, era);
    const listed = process.request("tools/list", eraParams(era));
    await opened;
    const list = await listed;
    const tools = (expectAnswer(subject, "tools/list", list) as { tools?: { name?: unknown }[] }).tools;
    if (!tools?.some((tool) => tool.name === "base64_encode")) {
      throw new Error(`${subject.label}: tools/list has no base64_encode`);
    }
    return list.receivedAt - process.spawnedAt;
  } finally {
    await process.close();
  }
}

/**
 * Throughput under MCP in `era`: the invoke figures' bursts as `tools/call base64_encode`,
 * on a fresh process opened in that era.
 */
export function mcpCallBursts(era: McpEra): BurstProtocol {
  const params = callParams(era);
  return {
    handshake: (process, subject) => open(process, subject, era),
    burst: (process, calls) => process.burstRequests("tools/call", params, calls, callSucceeded),
    requests: `tools/call (${era})`,
  };
}

/** Whether a `tools/call` result is a success: content, and no `isError`. */
export function callSucceeded(result: unknown): boolean {
  const answer = result as { isError?: unknown; content?: unknown } | null;
  return answer?.isError !== true && Array.isArray(answer?.content);
}

function expectAnswer(subject: ProcessSubject, method: string, response: Response): unknown {
  if (response.error) throw new Error(`${subject.label}: ${method} failed: ${response.error.message}`);
  return response.result;
}
