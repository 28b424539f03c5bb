import { JsonRpcErrorCode, RpcError } from "@executa/core";

/** How a plugin process ended. */
export interface ExitInfo {
  /** Exit code, or null when a signal ended it. */
  code: number | null;
  /** The signal that ended it, or null when it exited on its own. */
  signal: NodeJS.Signals | null;
}

/**
 * The plugin went away (exited, or closed its stdout) while a request was waiting for
 * its answer. Every pending call is rejected with one of these; `data` carries the exit
 * status and the last stderr lines, which usually say why.
 */
export class PluginExitedError extends RpcError {
  override readonly name = "PluginExitedError";
  constructor(
    readonly pluginName: string,
    readonly exit: ExitInfo | undefined,
    readonly stderrTail: readonly string[],
  ) {
    super(JsonRpcErrorCode.INTERNAL_ERROR, describeExit(pluginName, exit, stderrTail), {
      exit_code: exit?.code ?? null,
      signal: exit?.signal ?? null,
      stderr_tail: stderrTail,
    });
  }
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
