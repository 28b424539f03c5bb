import { type ChildProcess, spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { subjectEnv } from "../driver/subject-process.js";
import type { ThroughputFigure } from "../figures/invoke-rate.js";
import { rotated } from "../figures/schedule.js";
import { readCpuTimeMs } from "../proc-status.js";
import { summarize } from "../stats.js";
import {
  callParams,
  callSucceeded,
  eraParams,
  MCP_INITIALIZE,
  type McpEra,
  MODERN_REVISION,
} from "./mcp-figures.js";
import type { McpSubject } from "./mcp-subjects.js";

/** Requests in flight at once during an HTTP burst (each on its own keep-alive connection). */
export const HTTP_CONCURRENCY = 8;

/** How long a server may take to name its endpoint on stderr. */
const LISTEN_TIMEOUT_MS = 15_000;

/** A subject serving MCP over Streamable HTTP. */
interface HttpServer {
  url: string;
  pid: number;
  close(): Promise<void>;
}

/** A client session at an HTTP endpoint in one era: the headers every request carries. */
interface HttpSession {
  url: string;
  headers: Record<string, string>;
  era: McpEra;
}

/**
 * HTTP throughput: `calls` `tools/call base64_encode` POSTs, {@link HTTP_CONCURRENCY} in
 * flight, to a fresh server per run, after a session opened in `era` and a warm-up burst
 * of the same size; calls per second to the last answer, and the server's CPU per call.
 * Subjects interleaved run by run.
 */
export async function measureHttpThroughput(
  subjects: readonly McpSubject[],
  era: McpEra,
  calls: number,
  runs: number,
  warmups: number,
): Promise<Map<string, ThroughputFigure>> {
  const rates = new Map<string, number[]>(subjects.map((subject) => [subject.id, []]));
  const cpu = new Map<string, number[]>(subjects.map((subject) => [subject.id, []]));
  for (let run = 0; run < runs; run++) {
    for (const subject of rotated(subjects, run)) {
      const server = await startHttpServer(subject);
      try {
        const session = await openSession(server.url, era, subject.label);
        for (let warmup = 0; warmup < warmups; warmup++) await burst(session, calls, subject.label);
        const cpuBefore = readCpuTimeMs(server.pid);
        const elapsedMs = await burst(session, calls, subject.label);
        const cpuAfter = readCpuTimeMs(server.pid);
        rates.get(subject.id)!.push((calls / elapsedMs) * 1000);
        if (cpuBefore !== undefined && cpuAfter !== undefined) {
          cpu.get(subject.id)!.push(((cpuAfter - cpuBefore) * 1000) / calls);
        }
      } finally {
        await server.close();
      }
    }
  }
  const figures = new Map<string, ThroughputFigure>();
  for (const subject of subjects) {
    const figure: ThroughputFigure = { perS: summarize(rates.get(subject.id)!) };
    const cpuValues = cpu.get(subject.id)!;
    if (cpuValues.length > 0) figure.cpuPerInvokeUs = summarize(cpuValues);
    figures.set(subject.id, figure);
  }
  return figures;
}

/**
 * Opens a session and makes one call over HTTP in `era`: whether the subject serves it.
 * @throws Error saying how it failed.
 */
export async function checkHttpServes(subject: McpSubject, era: McpEra): Promise<void> {
  const server = await startHttpServer(subject);
  try {
    await burst(await openSession(server.url, era, subject.label), 1, subject.label);
  } finally {
    await server.close();
  }
}

/** Starts the subject's HTTP line and waits for it to name its endpoint on stderr. */
async function startHttpServer(subject: McpSubject): Promise<HttpServer> {
  const line = subject.http!;
  const child = spawn(line.command, [...line.args], {
    stdio: ["ignore", "ignore", "pipe"],
    env: subjectEnv(),
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${subject.label}: no endpoint on stderr: ${stderr}`)),
      LISTEN_TIMEOUT_MS,
    );
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /(http:\/\/\S+\/mcp)\b/.exec(stderr)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${subject.label}: exited (${code}) before listening: ${stderr.trim()}`));
    });
  }).catch(async (error: Error) => {
    await stop(child, exited);
    throw error;
  });
  return { url, pid: child.pid!, close: () => stop(child, exited) };
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await exited;
}

/** `initialize` + `notifications/initialized` (legacy, keeping the session id if one is given) or `server/discover` (modern). */
async function openSession(url: string, era: McpEra, label: string): Promise<HttpSession> {
  const base: HttpSession = { url, era, headers: {} };
  if (era === "modern") {
    const session = { ...base, headers: { "mcp-protocol-version": MODERN_REVISION } };
    await post(session, 0, "server/discover", eraParams(era), label);
    return session;
  }
  const response = await fetch(
    url,
    request(base, { jsonrpc: "2.0", id: 0, method: "initialize", params: MCP_INITIALIZE }),
  );
  await answerOf(response, 0, "initialize", label);
  const id = response.headers.get("mcp-session-id");
  const session: HttpSession = {
    ...base,
    headers: { "mcp-protocol-version": MCP_INITIALIZE.protocolVersion, ...(id && { "mcp-session-id": id }) },
  };
  const initialized = await fetch(
    url,
    request(session, { jsonrpc: "2.0", method: "notifications/initialized" }),
  );
  await initialized.arrayBuffer();
  if (initialized.status >= 300)
    throw new Error(`${label}: notifications/initialized → HTTP ${initialized.status}`);
  return session;
}

/** `calls` tools/call POSTs, {@link HTTP_CONCURRENCY} at a time; ms from the first to the last answer. */
async function burst(session: HttpSession, calls: number, label: string): Promise<number> {
  const params = callParams(session.era);
  let next = 1;
  const worker = async () => {
    while (next <= calls) {
      const id = next++;
      const result = await post(session, id, "tools/call", params, label);
      if (!callSucceeded(result))
        throw new Error(`${label}: tools/call ${id} failed: ${JSON.stringify(result)}`);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(HTTP_CONCURRENCY, calls) }, worker));
  return performance.now() - started;
}

async function post(
  session: HttpSession,
  id: number,
  method: string,
  params: Record<string, unknown>,
  label: string,
): Promise<unknown> {
  const response = await fetch(session.url, request(session, { jsonrpc: "2.0", id, method, params }));
  return answerOf(response, id, method, label);
}

/**
 * A POST of one JSON-RPC message. A modern request names its method (`Mcp-Method`) and,
 * for `tools/call`, its tool (`Mcp-Name`) in headers, as the 2026-07-28 HTTP binding requires.
 */
function request(
  session: HttpSession,
  body: { jsonrpc: "2.0"; id?: number; method: string; params?: unknown },
): RequestInit {
  const modernRequest = session.era === "modern" && body.id !== undefined;
  const name = (body.params as { name?: unknown } | undefined)?.name;
  return {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...session.headers,
      ...(modernRequest && { "mcp-method": body.method }),
      ...(modernRequest && typeof name === "string" && { "mcp-name": name }),
    },
    body: JSON.stringify(body),
  };
}

/** The result of the JSON-RPC answer with `id`, whether sent as JSON or as a server-sent event. */
async function answerOf(response: Response, id: number, method: string, label: string): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${label}: ${method} → HTTP ${response.status}: ${text.slice(0, 200)}`);
  const frames = (response.headers.get("content-type") ?? "").includes("text/event-stream")
    ? text
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
    : [text];
  for (const frame of frames) {
    if (!frame) continue;
    const message = JSON.parse(frame) as { id?: unknown; result?: unknown; error?: { message?: string } };
    if (message.id !== id) continue;
    if (message.error) throw new Error(`${label}: ${method} failed: ${message.error.message}`);
    return message.result;
  }
  throw new Error(`${label}: ${method}: no answer to id ${id} in ${text.slice(0, 200)}`);
}
