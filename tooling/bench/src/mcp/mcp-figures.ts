import { type Response, SubjectProcess } from "../driver/subject-process.js";
import { type BurstProtocol, ENCODE_ARGS } from "../figures/invoke-rate.js";
import type { ProcessSubject } from "../figures/schedule.js";
import type { McpSubject } from "./mcp-subjects.js";

/** The MCP `initialize` params of every session: the revision current clients ask for. */
export const MCP_INITIALIZE = Object.freeze({
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "executa-bench", version: "1.0.0" },
});

/** The `tools/call` params of the throughput bursts: the invoke figures' base64_encode. */
const CALL = Object.freeze({ name: "base64_encode", arguments: ENCODE_ARGS });

/**
 * One cold start under MCP: from `spawn` to the `tools/list` answer (with base64_encode in
 * it) read, in ms; `initialize`, `notifications/initialized` and `tools/list` are written at
 * once right after spawning, as a client that does not wait does (they wait in the pipe
 * until the server reads them).
 * @throws Error saying how the subject failed to serve MCP.
 */
export async function coldStartOnce(subject: McpSubject): Promise<number> {
  const process = new SubjectProcess(subject.id, subject.line);
  try {
    const initialized = process.request("initialize", MCP_INITIALIZE);
    process.notify("notifications/initialized");
    const listed = process.request("tools/list");
    expectAnswer(subject, "initialize", await initialized);
    const list = await listed;
    const tools = (expectAnswer(subject, "tools/list", list) as { tools?: { name?: unknown }[] }).tools;
    if (!tools?.some((tool) => tool.name === CALL.name)) {
      throw new Error(`${subject.label}: tools/list has no ${CALL.name}`);
    }
    return list.receivedAt - process.spawnedAt;
  } finally {
    await process.close();
  }
}

/**
 * Throughput under MCP: the invoke figures' bursts as `tools/call base64_encode`, on a
 * fresh process initialized by `initialize` and `notifications/initialized`.
 */
export const MCP_CALL_BURSTS: BurstProtocol = {
  handshake: async (process, subject) => {
    expectAnswer(subject, "initialize", await process.request("initialize", MCP_INITIALIZE));
    process.notify("notifications/initialized");
  },
  burst: (process, calls) => process.burstRequests("tools/call", CALL, calls, callSucceeded),
  requests: "tools/call",
};

function callSucceeded(result: unknown): boolean {
  const answer = result as { isError?: unknown; content?: unknown } | null;
  return answer?.isError !== true && Array.isArray(answer?.content);
}

function expectAnswer(subject: ProcessSubject, method: string, response: Response): unknown {
  if (response.error) throw new Error(`${subject.label}: ${method} failed: ${response.error.message}`);
  return response.result;
}
