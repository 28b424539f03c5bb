import {
  HEALTH_STATUSES,
  HOST_KILL_GRACE_MS,
  JsonRpcErrorCode,
  MAX_FRAME_BYTES,
  type Manifest,
  RpcError,
} from "@executa/core";
import { isHostError } from "@executa/host";
import { ExecutaBuildError } from "../errors/build-error.js";
import { type ArtifactCommand, type RunningArtifact, startArtifact, stderrOf } from "./artifact-process.js";

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

/** One request's outcome: the result, or the plugin's error answer. */
type Outcome = { result?: unknown; error?: RpcError };

/** What each check works with. */
interface CheckContext {
  artifact: RunningArtifact;
  timeoutMs: number;
  /** The check's failure, with the artifact's stderr. */
  fail(message: string): ExecutaBuildError;
  /** Sends a request; an error answer is an outcome, a timeout fails the check. */
  ask(method: string, params?: unknown): Promise<Outcome>;
}

/**
 * The lifecycle rules a runtime is where they break, checked on a running artifact over
 * real pipes: an unknown tool is -32601 naming the tools; `health` answers an allowed
 * status; an oversized line is discarded with -32600 and the plugin keeps serving;
 * SIGTERM while requests stream in makes it exit 0 within the host's grace; and nothing
 * but protocol frames went to stdout. Resolves with the names of the checks that ran;
 * rejects with an `ExecutaBuildError` (`CONFORMANCE`).
 */
export async function checkConformance(
  command: ArtifactCommand,
  manifest: Manifest,
  options: ConformanceOptions,
): Promise<string[]> {
  const artifact = await startArtifact(command);
  const context = checkContext(artifact, options.timeoutMs);
  try {
    await checkUnknownTool(context, manifest);
    await checkHealth(context);
    await checkOversizedLine(context, options.maxFrameBytes ?? MAX_FRAME_BYTES);
    await checkSigtermUnderLoad(context, options.exitGraceMs ?? HOST_KILL_GRACE_MS);
    await checkNoStrayStdout(context);
    return [
      "unknown tool -32601",
      "health",
      "oversized line -32600, keeps serving",
      "SIGTERM under load → exit 0",
    ];
  } finally {
    artifact.plugin.kill();
  }
}

function checkContext(artifact: RunningArtifact, timeoutMs: number): CheckContext {
  const fail = (message: string) =>
    new ExecutaBuildError("CONFORMANCE", message, { stderr: stderrOf(artifact.plugin) });
  return {
    artifact,
    timeoutMs,
    fail,
    ask: async (method, params) => {
      try {
        return { result: await artifact.plugin.request(method, params, timeoutMs) };
      } catch (error) {
        if (error instanceof RpcError && !isHostError(error, "REQUEST_TIMEOUT")) return { error };
        throw fail(`${method}: ${(error as Error).message}`);
      }
    },
  };
}

/** An invoke of a tool the plugin does not have: -32601, listing the tools in `error.data.available`. */
async function checkUnknownTool(context: CheckContext, manifest: Manifest): Promise<void> {
  const unknown = await context.ask("invoke", { tool: "executa-build-no-such-tool", arguments: {} });
  if (unknown.error?.code !== JsonRpcErrorCode.METHOD_NOT_FOUND) {
    throw context.fail(
      `an invoke of an unknown tool was answered ${describeOutcome(unknown)}, not error -32601`,
    );
  }
  const available = (unknown.error.data as { available?: unknown } | undefined)?.available;
  const names = manifest.tools.map((tool) => tool.name);
  if (!Array.isArray(available) || names.some((name) => !available.includes(name))) {
    throw context.fail("the -32601 for an unknown tool does not list the tools in error.data.available");
  }
}

/** `health` answers one of the spec's statuses. */
async function checkHealth(context: CheckContext): Promise<void> {
  const health = await context.ask("health");
  const status = (health.result as { status?: unknown } | undefined)?.status;
  if (!HEALTH_STATUSES.includes(status as never)) {
    throw context.fail(
      `health answered ${describeOutcome(health)}; the status must be one of ${HEALTH_STATUSES.join(", ")}`,
    );
  }
}

/** A line over the frame limit is answered -32600 with id null, and the plugin keeps serving. */
async function checkOversizedLine(context: CheckContext, maxFrameBytes: number): Promise<void> {
  const { plugin } = context.artifact;
  const { timeoutMs } = context;
  let onAnswer: (frame: Record<string, unknown>) => void = () => {};
  const answered = new Promise<Record<string, unknown>>((resolve) => {
    onAnswer = resolve;
    plugin.once("orphanResponse", onAnswer);
  });
  // A JSON string that never ends within the limit: invalid as a frame, and too long.
  const line = Buffer.alloc(maxFrameBytes + 2, 0x61);
  line.write('"', 0);
  line[line.length - 1] = 0x0a;
  await plugin.writeRaw(line).catch(() => {});
  const frame = await withinMs(answered, timeoutMs);
  plugin.off("orphanResponse", onAnswer);
  const error = (frame as { error?: { code?: unknown } } | undefined)?.error;
  if (!frame || error?.code !== JsonRpcErrorCode.INVALID_REQUEST || frame.id !== null) {
    throw context.fail(
      frame
        ? `a line over ${maxFrameBytes} bytes was answered ${JSON.stringify(frame).slice(0, 200)}, not error -32600 with id null`
        : `a line over ${maxFrameBytes} bytes was not answered within ${timeoutMs} ms (expected error -32600)`,
    );
  }
  const after = await context.ask("describe");
  if (!after.result) {
    throw context.fail("describe was not answered after an oversized line (the plugin must keep serving)");
  }
}

/** SIGTERM while requests stream in: the plugin exits 0 within the host's grace. */
async function checkSigtermUnderLoad(context: CheckContext, graceMs: number): Promise<void> {
  const { plugin } = context.artifact;
  const flood = floodWithRequests(context.artifact);
  await new Promise((resolve) => setTimeout(resolve, FLOOD_BEFORE_SIGNAL_MS));
  const stopped = await plugin.stop({ via: "sigterm", graceMs });
  const sent = await flood.stop();
  if (stopped.forced) {
    throw context.fail(
      `still running ${graceMs} ms after SIGTERM, sent while requests streamed in (${sent} sent); ` +
        "a host kills it then, losing in-flight work",
    );
  }
  if (stopped.code !== 0) {
    const how = stopped.signal ? `was killed by ${stopped.signal}` : `exited with code ${stopped.code}`;
    throw context.fail(`${how} ${Math.round(stopped.elapsedMs)} ms after SIGTERM (expected a clean exit 0)`);
  }
}

/** Writes `health` requests in batches, bypassing the peer (nobody awaits the answers), until stopped. */
function floodWithRequests(artifact: RunningArtifact): { stop: () => Promise<number> } {
  let flooding = true;
  let sent = 0;
  const writing = (async () => {
    while (flooding) {
      const batch = Array.from(
        { length: FLOOD_BATCH },
        () => `{"jsonrpc":"2.0","id":"flood-${sent++}","method":"health"}\n`,
      ).join("");
      const took = await artifact.plugin.writeRaw(batch).then(
        () => true,
        () => false,
      );
      if (!took) return;
    }
  })();
  return {
    stop: async () => {
      flooding = false;
      await writing;
      return sent;
    },
  };
}

/** Stdout carried protocol frames only, to the end (all of it is read once the pipes closed). */
async function checkNoStrayStdout(context: CheckContext): Promise<void> {
  const { plugin, strayLines } = context.artifact;
  await plugin.closed;
  if (strayLines.length > 0) {
    throw context.fail(
      `printed a non-JSON-RPC line on stdout: ${JSON.stringify(strayLines[0]!.slice(0, 200))}`,
    );
  }
}

/** `promise`'s value, or undefined when it takes longer than `ms`. */
async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

function describeOutcome(outcome: Outcome): string {
  if (outcome.error) return `with error ${outcome.error.code} (${outcome.error.message})`;
  return JSON.stringify(outcome.result)?.slice(0, 200) ?? "undefined";
}
