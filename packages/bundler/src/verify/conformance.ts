import {
  HEALTH_STATUSES,
  HOST_KILL_GRACE_MS,
  JsonRpcErrorCode,
  MAX_FRAME_BYTES,
  type Manifest,
  RpcError,
} from "@executa/core";
import { ArtifactCheckError } from "./artifact-check-error.js";
import { type ArtifactCommand, ArtifactSession } from "./artifact-session.js";

/** Options of {@link checkConformance}. */
export interface ConformanceOptions {
  /** Longest wait for one answer. */
  timeoutMs: number;
  /** How long the process may take to exit after SIGTERM. Default: the host's kill grace (5 s). */
  exitGraceMs?: number;
  /** The frame size limit to exceed. Default: the spec's 16 MiB. */
  maxFrameBytes?: number;
}

/** How long requests stream in before SIGTERM arrives, so the signal lands mid-flood. */
const FLOOD_BEFORE_SIGNAL_MS = 300;
const FLOOD_BATCH = 256;

/**
 * The lifecycle rules a runtime is where they break, checked on a running artifact over
 * real pipes: an unknown tool is -32601 naming the tools; `health` answers an allowed
 * status; an oversized line is discarded with -32600 and the plugin keeps serving; and
 * SIGTERM while requests stream in makes it exit 0 within the host's grace. Resolves with
 * the names of the checks that ran; rejects with an {@link ArtifactCheckError}.
 */
export async function checkConformance(
  command: ArtifactCommand,
  manifest: Manifest,
  options: ConformanceOptions,
): Promise<string[]> {
  const passed: string[] = [];
  const session = new ArtifactSession(command);
  const fail = (message: string) => new ArtifactCheckError("conformance", message, session.stderr);
  const ask = async (method: string, params?: unknown) => {
    try {
      return { result: await session.request(method, params, options.timeoutMs) };
    } catch (error) {
      if (error instanceof RpcError && !error.message.startsWith("no answer to")) return { error };
      throw fail(`${method}: ${(error as Error).message}`);
    }
  };
  try {
    const unknown = await ask("invoke", { tool: "executa-build-no-such-tool", arguments: {} });
    const data = unknown.error?.data as { available?: unknown } | undefined;
    const names = manifest.tools.map((tool) => tool.name);
    if (unknown.error?.code !== JsonRpcErrorCode.METHOD_NOT_FOUND) {
      throw fail(`an invoke of an unknown tool was answered ${describeOutcome(unknown)}, not error -32601`);
    }
    if (
      !Array.isArray(data?.available) ||
      names.some((name) => !(data.available as unknown[]).includes(name))
    ) {
      throw fail(`the -32601 for an unknown tool does not list the tools in error.data.available`);
    }
    passed.push("unknown tool -32601");

    const health = await ask("health");
    const status = (health.result as { status?: unknown } | undefined)?.status;
    if (!HEALTH_STATUSES.includes(status as never)) {
      throw fail(
        `health answered ${describeOutcome(health)}; the status must be one of ${HEALTH_STATUSES.join(", ")}`,
      );
    }
    passed.push("health");

    await checkOversizedLine(session, options.maxFrameBytes ?? MAX_FRAME_BYTES, fail, options.timeoutMs);
    const after = await ask("describe");
    if (!after.result)
      throw fail("describe was not answered after an oversized line (the plugin must keep serving)");
    passed.push("oversized line -32600, keeps serving");

    await checkSigtermUnderLoad(session, options.exitGraceMs ?? HOST_KILL_GRACE_MS, fail);
    passed.push("SIGTERM under load → exit 0");
    if (session.strayLines.length > 0) {
      throw fail(
        `printed a non-JSON-RPC line on stdout: ${JSON.stringify(session.strayLines[0]!.slice(0, 200))}`,
      );
    }
    return passed;
  } finally {
    session.kill();
  }
}

async function checkOversizedLine(
  session: ArtifactSession,
  maxFrameBytes: number,
  fail: (message: string) => ArtifactCheckError,
  timeoutMs: number,
): Promise<void> {
  const answered = new Promise<unknown>((resolve) => session.onUnmatchedFrame(resolve));
  // A JSON string that never ends within the limit: invalid as a frame, and too long.
  const line = Buffer.alloc(maxFrameBytes + 2, 0x61);
  line.write('"', 0);
  line[line.length - 1] = 0x0a;
  await session.writeRaw(line);
  let timer: NodeJS.Timeout | undefined;
  const frame = await Promise.race([
    answered,
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  const error = (frame as { id?: unknown; error?: { code?: unknown } } | undefined)?.error;
  if (!frame || error?.code !== JsonRpcErrorCode.INVALID_REQUEST || (frame as { id?: unknown }).id !== null) {
    throw fail(
      frame
        ? `a line over ${maxFrameBytes} bytes was answered ${JSON.stringify(frame).slice(0, 200)}, not error -32600 with id null`
        : `a line over ${maxFrameBytes} bytes was not answered within ${timeoutMs} ms (expected error -32600)`,
    );
  }
}

async function checkSigtermUnderLoad(
  session: ArtifactSession,
  graceMs: number,
  fail: (message: string) => ArtifactCheckError,
): Promise<void> {
  let flooding = true;
  let sent = 0;
  const flood = (async () => {
    while (flooding) {
      const batch = Array.from(
        { length: FLOOD_BATCH },
        () => `{"jsonrpc":"2.0","id":"flood-${sent++}","method":"health"}\n`,
      ).join("");
      if (!(await session.writeRaw(batch))) return;
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, FLOOD_BEFORE_SIGNAL_MS));
  session.signal("SIGTERM");
  const signalledAt = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const exit = await Promise.race([
    session.exited,
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), graceMs);
    }),
  ]);
  clearTimeout(timer);
  flooding = false;
  await flood;
  if (!exit) {
    throw fail(
      `still running ${graceMs} ms after SIGTERM, sent while requests streamed in (${sent} sent); ` +
        "a host kills it then, losing in-flight work",
    );
  }
  if (exit.code !== 0) {
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    throw fail(
      `${how} ${Math.round(performance.now() - signalledAt)} ms after SIGTERM (expected a clean exit 0)`,
    );
  }
}

function describeOutcome(outcome: { result?: unknown; error?: RpcError }): string {
  if (outcome.error) return `with error ${outcome.error.code} (${outcome.error.message})`;
  return JSON.stringify(outcome.result)?.slice(0, 200) ?? "undefined";
}
