import {
  DESCRIBE_TIMEOUT_MS,
  HOST_KILL_GRACE_MS,
  JsonRpcErrorCode,
  type Manifest,
  RpcError,
} from "@executa/core";
import { ArtifactCheckError } from "./artifact-check-error.js";
import { type ArtifactCommand, ArtifactSession } from "./artifact-session.js";

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
 * then closes stdin and waits for a clean exit. Rejects with an {@link ArtifactCheckError}
 * when the process cannot start, exits or hangs before answering, answers with an error
 * or a non-manifest, prints anything but JSON-RPC frames on stdout, or does not exit 0
 * after stdin closed.
 */
export async function describeArtifact(
  command: ArtifactCommand,
  options: DescribeOptions = {},
): Promise<DescribeReport> {
  const timeoutMs = options.timeoutMs ?? DESCRIBE_TIMEOUT_MS;
  const session = new ArtifactSession(command);
  let closing = false;
  const failed = new Promise<never>((_, reject) => {
    session.onStrayLine((line) => reject(strayError(line, session)));
    void session.exited.then((exit) => {
      if (closing) return;
      const error = session.startError;
      reject(
        error
          ? new ArtifactCheckError(
              "spawn",
              `cannot start ${command.command}: ${error.message}`,
              session.stderr,
            )
          : new ArtifactCheckError(
              "exited",
              `exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}) before answering describe`,
              session.stderr,
            ),
      );
    });
  });
  failed.catch(() => {});
  const step = <T>(work: Promise<T>) => Promise.race([work, failed]);
  try {
    const elapsed = () => Math.round(performance.now() - session.spawnedAt);
    let protocolVersion = "1.1";
    try {
      const result = (await step(
        session.request(
          "initialize",
          { protocolVersion: "2.0", clientInfo: { name: "executa-build", version: "1" }, capabilities: {} },
          timeoutMs,
        ),
      )) as { protocolVersion?: unknown } | null;
      protocolVersion = typeof result?.protocolVersion === "string" ? result.protocolVersion : "1.1";
    } catch (error) {
      if (!(error instanceof RpcError && error.code === JsonRpcErrorCode.METHOD_NOT_FOUND)) {
        throw rpcFailure("initialize", error, session, timeoutMs);
      }
    }
    const initializeMs = elapsed();
    let answer: unknown;
    try {
      answer = await step(session.request("describe", undefined, timeoutMs));
    } catch (error) {
      throw rpcFailure("describe", error, session, timeoutMs);
    }
    const describeMs = elapsed();
    const manifest = asManifest(answer, session);
    closing = true;
    const exit = await session.close(options.exitGraceMs ?? HOST_KILL_GRACE_MS);
    if (session.strayLines.length > 0) throw strayError(session.strayLines[0]!, session);
    if (exit.killed) {
      throw new ArtifactCheckError(
        "no-exit",
        `did not exit within ${options.exitGraceMs ?? HOST_KILL_GRACE_MS} ms after stdin closed (a plugin must exit on stdin EOF)`,
        session.stderr,
      );
    }
    if (exit.code !== 0) {
      throw new ArtifactCheckError(
        "bad-exit",
        `exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`} after stdin closed (expected 0)`,
        session.stderr,
      );
    }
    return { manifest, protocolVersion, initializeMs, describeMs, stderr: session.stderr };
  } finally {
    closing = true;
    session.kill();
  }
}

function rpcFailure(method: string, error: unknown, session: ArtifactSession, timeoutMs: number): Error {
  if (error instanceof ArtifactCheckError) return error;
  const exit = session.exit;
  if (session.startError) {
    return new ArtifactCheckError("spawn", `cannot start: ${session.startError.message}`, session.stderr);
  }
  if (exit) {
    return new ArtifactCheckError(
      "exited",
      `exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}) before answering ${method}`,
      session.stderr,
    );
  }
  if (error instanceof RpcError) {
    const timedOut = error.message.startsWith("no answer to");
    return new ArtifactCheckError(
      timedOut ? "timeout" : "rpc-error",
      timedOut
        ? `${method} was not answered within ${timeoutMs} ms (the spec's describe timeout is 5 s)`
        : `${method} answered with error ${error.code}: ${error.message}`,
      session.stderr,
    );
  }
  return new ArtifactCheckError("rpc-error", `${method} failed: ${String(error)}`, session.stderr);
}

function strayError(line: string, session: ArtifactSession): ArtifactCheckError {
  const shown = line.length > 200 ? `${line.slice(0, 200)}…` : line;
  return new ArtifactCheckError(
    "stray-stdout",
    `printed a non-JSON-RPC line on stdout: ${JSON.stringify(shown)} (stdout carries protocol frames only; log to stderr)`,
    session.stderr,
  );
}

function asManifest(value: unknown, session: ArtifactSession): Manifest {
  const manifest = value as Partial<Manifest> | null;
  const problems: string[] = [];
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) {
    problems.push("the answer is not an object");
  } else {
    if (typeof manifest.name !== "string" || manifest.name === "") problems.push("no name");
    if (typeof manifest.version !== "string" || manifest.version === "") problems.push("no version");
    if (!Array.isArray(manifest.tools) || manifest.tools.length === 0) problems.push("no tools");
  }
  if (problems.length > 0) {
    throw new ArtifactCheckError(
      "invalid-manifest",
      `describe answered something that is not a manifest (${problems.join(", ")})`,
      session.stderr,
    );
  }
  return manifest as Manifest;
}
