import { type ExitInfo, type FileTransportRefusal, HostError } from "./host-error.js";

/** Longest piece of the plugin-given path quoted in a message. */
const MAX_QUOTED_PATH_CHARS = 300;

/**
 * `PLUGIN_EXITED`: the plugin went away while a request waited for its answer. Every
 * pending call is rejected with one of these; `data` carries the exit status and the last
 * stderr lines, which usually say why.
 */
export function pluginExited(
  pluginName: string,
  exit: ExitInfo | undefined,
  stderrTail: readonly string[],
): HostError {
  return new HostError("PLUGIN_EXITED", describeExit(pluginName, exit, stderrTail), {
    details: { pluginName, exit, stderrTail },
    data: { exit_code: exit?.code ?? null, signal: exit?.signal ?? null, stderr_tail: stderrTail },
  });
}

/** `REQUEST_TIMEOUT`: a host → plugin request got no answer within `timeoutMs`. */
export function requestTimedOut(method: string, timeoutMs: number, tool?: string): HostError {
  return new HostError(
    "REQUEST_TIMEOUT",
    tool === undefined
      ? `${method} timed out after ${timeoutMs} ms`
      : `Tool "${tool}" timed out after ${timeoutMs} ms`,
    {
      details: tool === undefined ? { method, timeoutMs } : { method, tool, timeoutMs },
      data: tool === undefined ? { method, timeout_ms: timeoutMs } : { method, tool, timeout_ms: timeoutMs },
    },
  );
}

/** `PROTOCOL_VIOLATION`: the answer to `method` breaks the spec; `value` is what the plugin sent. */
export function protocolViolation(method: string, problem: string, value: unknown): HostError {
  return new HostError("PROTOCOL_VIOLATION", `${method}: ${problem}`, {
    details: { method, value },
    data: { method, value },
  });
}

/**
 * `FILE_TRANSPORT_REFUSED`: a `__file_transport` pointer named a file the host will not
 * use: not an absolute path inside a private `executa-` directory (owner-only, mode 0700,
 * directly under a temp dir), not a plain regular file of the host's user within the size
 * limit, or not a JSON-RPC response for the pointer's id. The message never quotes the
 * file's content (it may be a file the plugin had no business naming).
 */
export function fileTransportRefused(path: string, refusal: FileTransportRefusal, detail: string): HostError {
  return new HostError("FILE_TRANSPORT_REFUSED", `file transport refused ${quotePath(path)}: ${detail}`, {
    details: { path, refusal },
  });
}

function describeExit(name: string, exit: ExitInfo | undefined, tail: readonly string[]): string {
  const how =
    exit === undefined
      ? "closed its stdout"
      : exit.signal
        ? `was killed by ${exit.signal}`
        : `exited with code ${exit.code}`;
  const last = tail.length > 0 ? `; last stderr: ${tail.slice(-3).join(" | ")}` : "";
  return `plugin "${name}" ${how} before answering${last}`;
}

function quotePath(path: string): string {
  return JSON.stringify(
    path.length > MAX_QUOTED_PATH_CHARS ? `${path.slice(0, MAX_QUOTED_PATH_CHARS)}…` : path,
  );
}
