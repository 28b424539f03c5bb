import { DESCRIBE_TIMEOUT_MS, HOST_KILL_GRACE_MS, type Manifest, RpcError } from "@executa/core";
import { neverServedHint } from "@executa/core/internal";
import { isHostError } from "@executa/host";
import { ExecutaBuildError, isBuildError } from "../errors/build-error.js";
import {
  type ArtifactCommand,
  describeExit,
  type RunningArtifact,
  startArtifact,
  stderrOf,
} from "./artifact-process.js";

/** Options of {@link describeArtifact}. */
export interface DescribeOptions {
  /** Longest wait for each of `initialize` and `describe`. Default: the spec's 5 s. */
  timeoutMs?: number;
  /** How long the process may take to exit after stdin closed. Default 5 s (the host's SIGKILL grace). */
  exitGraceMs?: number;
}

/** What a plugin answered, and how fast. */
export interface DescribeReport {
  manifest: Manifest;
  /** The version the plugin accepted; "1.1" when it answered `initialize` with -32601. */
  protocolVersion: string;
  /** From spawn to the `initialize` answer. */
  initializeMs: number;
  /** From spawn to the `describe` answer: the cold start a host sees. */
  describeMs: number;
  /** What the plugin wrote to stderr. */
  stderr: string;
}

/**
 * Starts an artifact, sends `initialize` (protocol 2.0) and `describe` as a host does,
 * then closes stdin and waits for a clean exit. Rejects with an `ExecutaBuildError` whose
 * code says why (`ARTIFACT_SPAWN`, `ARTIFACT_EXITED`, `ARTIFACT_TIMEOUT`,
 * `ARTIFACT_RPC_ERROR`, `INVALID_MANIFEST`, `STRAY_STDOUT`, `NO_EXIT_ON_EOF`,
 * `BAD_EXIT`) and `details.stderr` what it wrote there: when the process cannot start,
 * exits or hangs before answering, answers with an error or a non-manifest, prints
 * anything but JSON-RPC frames on stdout, or does not exit 0 after stdin closed.
 */
export async function describeArtifact(
  command: ArtifactCommand,
  options: DescribeOptions = {},
): Promise<DescribeReport> {
  const artifact = await startArtifact(command);
  const watch = watchForMisbehaviour(artifact);
  try {
    const answers = await Promise.race([
      askForManifest(artifact, options.timeoutMs ?? DESCRIBE_TIMEOUT_MS),
      watch.failed,
    ]);
    watch.stop();
    await expectExitOnEof(artifact, options.exitGraceMs ?? HOST_KILL_GRACE_MS);
    return { ...answers, stderr: stderrOf(artifact.plugin) };
  } finally {
    watch.stop();
    artifact.plugin.kill();
  }
}

/** An exit before the answer; a clean one (code 0) usually means an entry that never serves. */
function exitedBefore(method: string, exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  const what = `exited (${describeExit(exit)}) before answering ${method}`;
  return exit.code === 0 && exit.signal === null ? `${what}: ${neverServedHint("the plugin's entry")}` : what;
}

/**
 * Rejects `failed` at the first stray stdout line, or when the process ends before
 * {@link stop} is called (it was asked to, after describe).
 */
function watchForMisbehaviour(artifact: RunningArtifact): { failed: Promise<never>; stop: () => void } {
  const { plugin } = artifact;
  let watching = true;
  let unsubscribe = () => {};
  const failed = new Promise<never>((_, reject) => {
    unsubscribe = plugin.stdoutDebug.onLine((line) => reject(strayError(line, artifact)));
    void plugin.closed.then((exit) => {
      if (!watching) return;
      reject(
        new ExecutaBuildError("ARTIFACT_EXITED", exitedBefore("describe", exit), {
          stderr: stderrOf(plugin),
        }),
      );
    });
  });
  failed.catch(() => {});
  return {
    failed,
    stop: () => {
      watching = false;
      unsubscribe();
    },
  };
}

/** `initialize` (a -32601 answer means a v1 plugin), then `describe`, timed from the spawn. */
async function askForManifest(
  artifact: RunningArtifact,
  timeoutMs: number,
): Promise<Omit<DescribeReport, "stderr">> {
  const { plugin, spawnedAt } = artifact;
  const elapsed = () => Math.round(performance.now() - spawnedAt);
  const negotiated = await plugin.initialize({ timeoutMs }).catch(async (error: unknown) => {
    throw await answerFailure("initialize", error, artifact, timeoutMs);
  });
  const initializeMs = elapsed();
  const answer = await plugin.describe({ timeoutMs }).catch(async (error: unknown) => {
    throw await answerFailure("describe", error, artifact, timeoutMs);
  });
  const describeMs = elapsed();
  return {
    manifest: asManifest(answer, artifact),
    protocolVersion: negotiated.protocolVersion,
    initializeMs,
    describeMs,
  };
}

/** Closes stdin, the host's way to ask for shutdown: the plugin must exit 0 within `graceMs`. */
async function expectExitOnEof(artifact: RunningArtifact, graceMs: number): Promise<void> {
  const { plugin } = artifact;
  const stopped = await plugin.stop({ via: "eof", graceMs });
  // Every line it wrote is read once its pipes closed.
  await plugin.closed;
  if (artifact.strayLines.length > 0) throw strayError(artifact.strayLines[0]!, artifact);
  if (stopped.forced) {
    throw new ExecutaBuildError(
      "NO_EXIT_ON_EOF",
      `did not exit within ${graceMs} ms after stdin closed (a plugin must exit on stdin EOF)`,
      { stderr: stderrOf(plugin) },
    );
  }
  if (stopped.code !== 0) {
    throw new ExecutaBuildError(
      "BAD_EXIT",
      `exited with ${describeExit(stopped)} after stdin closed (expected 0)`,
      { stderr: stderrOf(plugin) },
    );
  }
}

/** Why `method` got no usable answer, as the check's error. */
async function answerFailure(
  method: string,
  error: unknown,
  artifact: RunningArtifact,
  timeoutMs: number,
): Promise<ExecutaBuildError> {
  const { plugin } = artifact;
  if (isBuildError(error)) return error;
  if (isHostError(error, "PLUGIN_EXITED") || !plugin.running) {
    const exit = await plugin.closed;
    return new ExecutaBuildError("ARTIFACT_EXITED", exitedBefore(method, exit), { stderr: stderrOf(plugin) });
  }
  const stderr = stderrOf(plugin);
  if (isHostError(error, "REQUEST_TIMEOUT")) {
    return new ExecutaBuildError(
      "ARTIFACT_TIMEOUT",
      `${method} was not answered within ${timeoutMs} ms (the spec's describe timeout is 5 s)`,
      { stderr },
    );
  }
  if (isHostError(error, "PROTOCOL_VIOLATION") && method === "describe") {
    const problem = error.message.replace(/^describe: /, "");
    return notAManifest(problem, stderr);
  }
  const reason =
    error instanceof RpcError
      ? `${method} answered with error ${error.code}: ${error.message}`
      : `${method} failed: ${String(error)}`;
  return new ExecutaBuildError("ARTIFACT_RPC_ERROR", reason, { stderr });
}

function strayError(line: string, artifact: RunningArtifact): ExecutaBuildError {
  const shown = line.length > 200 ? `${line.slice(0, 200)}…` : line;
  return new ExecutaBuildError(
    "STRAY_STDOUT",
    `printed a non-JSON-RPC line on stdout: ${JSON.stringify(shown)} (stdout carries protocol frames only; log to stderr)`,
    { stderr: stderrOf(artifact.plugin) },
  );
}

/** The host checked the shape a host needs; a build also needs a name, a version and tools. */
function asManifest(manifest: Manifest, artifact: RunningArtifact): Manifest {
  const problems: string[] = [];
  if (typeof manifest.name !== "string" || manifest.name === "") problems.push("no name");
  if (typeof manifest.version !== "string" || manifest.version === "") problems.push("no version");
  if (manifest.tools.length === 0) problems.push("no tools");
  if (problems.length > 0) throw notAManifest(problems.join(", "), stderrOf(artifact.plugin));
  return manifest;
}

function notAManifest(problem: string, stderr: string): ExecutaBuildError {
  return new ExecutaBuildError(
    "INVALID_MANIFEST",
    `describe answered something that is not a manifest (${problem})`,
    { stderr },
  );
}
