import { type Response, SubjectProcess } from "../driver/subject-process.js";
import { ENCODE_ARGS } from "../figures/invoke-rate.js";
import { rotated } from "../figures/schedule.js";
import { readCpuTimeMs } from "../proc-status.js";
import { type Sample, summarize } from "../stats.js";
import type { McpSubject } from "./mcp-subjects.js";

/** The MCP `initialize` params of every session: the revision current clients ask for. */
export const MCP_INITIALIZE = Object.freeze({
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "executa-bench", version: "1.0.0" },
});

/** The `tools/call` params of the throughput bursts: the invoke figures' base64_encode. */
const CALL = Object.freeze({ name: "base64_encode", arguments: ENCODE_ARGS });

/** The MCP throughput figure of one subject. */
export interface McpThroughputFigure {
  perS: Sample;
  /** The subject's CPU time (all threads) per call during the burst, µs; absent without procfs. */
  cpuPerCallUs?: Sample;
}

/**
 * Cold start under MCP: from `spawn` to the `tools/list` answer read, with `initialize`,
 * `notifications/initialized` and `tools/list` written at once right after spawning (as
 * a client that does not wait does; they wait in the pipe until the server reads them).
 */
export async function measureMcpColdStart(
  subjects: readonly McpSubject[],
  runs: number,
  warmups: number,
): Promise<Map<string, Sample>> {
  const values = new Map<string, number[]>(subjects.map((subject) => [subject.id, []]));
  for (let run = 0; run < warmups + runs; run++) {
    for (const subject of rotated(subjects, run)) {
      const ms = await coldStartOnce(subject);
      if (run >= warmups) values.get(subject.id)!.push(ms);
    }
  }
  return new Map([...values].map(([id, list]) => [id, summarize(list)]));
}

/**
 * One cold start: spawn, `initialize`, `tools/list` with base64_encode in it; its time in ms.
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
 * Throughput under MCP: `calls` `tools/call base64_encode` written back to back, timed to
 * the last answer; calls per second and the subject's CPU time per call. Each run in a
 * fresh process, initialized, warmed up by the same burst, subjects interleaved.
 */
export async function measureMcpThroughput(
  subjects: readonly McpSubject[],
  calls: number,
  runs: number,
  warmups: number,
): Promise<Map<string, McpThroughputFigure>> {
  const rates = new Map<string, number[]>(subjects.map((subject) => [subject.id, []]));
  const cpu = new Map<string, number[]>(subjects.map((subject) => [subject.id, []]));
  for (let run = 0; run < runs; run++) {
    for (const subject of rotated(subjects, run)) {
      const process = new SubjectProcess(subject.id, subject.line);
      try {
        expectAnswer(subject, "initialize", await process.request("initialize", MCP_INITIALIZE));
        process.notify("notifications/initialized");
        for (let warmup = 0; warmup < warmups; warmup++) await callBurst(subject, process, calls);
        const cpuBefore = readCpuTimeMs(process.pid);
        const elapsedMs = await callBurst(subject, process, calls);
        const cpuAfter = readCpuTimeMs(process.pid);
        rates.get(subject.id)!.push(calls / (elapsedMs / 1000));
        if (cpuBefore !== undefined && cpuAfter !== undefined) {
          cpu.get(subject.id)!.push(((cpuAfter - cpuBefore) * 1000) / calls);
        }
      } finally {
        await process.close();
      }
    }
  }
  return new Map(
    subjects.map((subject) => {
      const figure: McpThroughputFigure = { perS: summarize(rates.get(subject.id)!) };
      const cpuValues = cpu.get(subject.id)!;
      if (cpuValues.length > 0) figure.cpuPerCallUs = summarize(cpuValues);
      return [subject.id, figure];
    }),
  );
}

/** One burst of `tools/call`, every answer a result that is not `isError`; its time in ms. */
async function callBurst(subject: McpSubject, process: SubjectProcess, calls: number): Promise<number> {
  const burst = await process.burstRequests("tools/call", CALL, calls, callSucceeded);
  if (burst.failures > 0) {
    throw new Error(
      `${subject.label}: ${burst.failures} of ${calls} tools/call failed: ${burst.firstFailure}`,
    );
  }
  return burst.elapsedMs;
}

function callSucceeded(result: unknown): boolean {
  const answer = result as { isError?: unknown; content?: unknown } | null;
  return answer?.isError !== true && Array.isArray(answer?.content);
}

function expectAnswer(subject: McpSubject, method: string, response: Response): unknown {
  if (response.error) throw new Error(`${subject.label}: ${method} failed: ${response.error.message}`);
  return response.result;
}
