import { JsonRpcErrorCode, RpcError, ServerErrorCode } from "@executa/core";
import { errorBrand } from "@executa/core/internal";

/**
 * What went wrong, one code per case: match on it (see {@link isHostError}), never on the
 * message.
 *
 * A call to the plugin that failed:
 * - `PLUGIN_EXITED`: the plugin exited (or closed its stdout) before answering; the exit
 *   status and the last stderr lines are in {@link HostError.details}.
 * - `REQUEST_TIMEOUT`: no answer in time (`describe` 5 s, `health` 3 s, an invoke's tool
 *   timeout); JSON-RPC code -32000, as the spec's "JSON-RPC timeout error".
 * - `PROTOCOL_VIOLATION`: the plugin answered, but not in the shape the spec requires (an
 *   invoke result without a boolean `success`, a manifest without tools, a refused
 *   file-transport pointer, …); what it sent is `details.value`.
 *
 * The host itself:
 * - `FILE_TRANSPORT_REFUSED`: a file-transport pointer named a file the host will not use
 *   (`details.path`, `details.refusal`); the file is left in place.
 * - `SPAWN_FAILED`: the plugin's command cannot be started.
 * - `CHILD_WITHOUT_PIPES`: a `PluginProcess` was given a child without piped stdio.
 * - `INVOKE_ID_IN_USE`: an invoke id that is already in flight.
 * - `INVOKE_ENDED`: the invoke a reverse call belonged to has ended (the reason its
 *   signal aborts with).
 * - `BLOB_TOO_LARGE`: a body PUT to a local provider's loopback URL outgrew its limit (answered 413).
 * - `INVALID_SAMPLING_CONFIG`: a local sampling provider's configuration or script cannot be used.
 * - `INVALID_OPTION`: another argument a host API cannot use (e.g. a loopback route name).
 * - `STORE_LOCKED`: the local storage database stayed locked by another process past the wait.
 * - `INTERNAL`: a broken invariant of the host (a bug).
 */
export type HostErrorCode =
  | "PLUGIN_EXITED"
  | "REQUEST_TIMEOUT"
  | "PROTOCOL_VIOLATION"
  | "FILE_TRANSPORT_REFUSED"
  | "SPAWN_FAILED"
  | "CHILD_WITHOUT_PIPES"
  | "INVOKE_ID_IN_USE"
  | "INVOKE_ENDED"
  | "BLOB_TOO_LARGE"
  | "INVALID_SAMPLING_CONFIG"
  | "INVALID_OPTION"
  | "STORE_LOCKED"
  | "INTERNAL";

/** How a plugin process ended. */
export interface ExitInfo {
  /** Exit code, or null when a signal ended it. */
  code: number | null;
  /** The signal that ended it, or null when it exited on its own. */
  signal: NodeJS.Signals | null;
}

/** Why a file-transport pointer was refused (`FILE_TRANSPORT_REFUSED`). */
export type FileTransportRefusal =
  | "not_absolute"
  | "not_private_dir"
  | "not_regular_file"
  | "hard_linked"
  | "wrong_owner"
  | "too_large"
  | "unreadable"
  | "not_json"
  | "not_response"
  | "id_mismatch";

/** The evidence some codes carry, besides the message. */
export interface HostErrorDetails {
  /** The request that failed (`REQUEST_TIMEOUT`, `PROTOCOL_VIOLATION`). */
  method?: string;
  /** The tool of a timed-out invoke. */
  tool?: string;
  timeoutMs?: number;
  /** What the plugin sent (`PROTOCOL_VIOLATION`). */
  value?: unknown;
  /** `PLUGIN_EXITED`: the plugin's name, its exit (absent when only stdout closed) and last stderr lines. */
  pluginName?: string;
  exit?: ExitInfo;
  stderrTail?: readonly string[];
  /** `FILE_TRANSPORT_REFUSED`: the path as the pointer gave it, and why; `STORE_LOCKED`: the database file. */
  path?: string;
  refusal?: FileTransportRefusal;
}

/** Options of a {@link HostError}. */
export interface HostErrorOptions {
  details?: HostErrorDetails;
  /** The JSON-RPC error data of a failed call (see `RpcError.data`). */
  data?: unknown;
  cause?: unknown;
}

/**
 * The one error of `@executa/host`. {@link HostError.hostCode} says which case (see
 * {@link HostErrorCode}); {@link HostError.details} carries the evidence as data.
 *
 * It is an `RpcError`, so a failed call reads like any JSON-RPC error: `code` is the
 * JSON-RPC code (-32000 for a timeout, -32603 otherwise) and `data` its wire data; that
 * is why the host's own case is `hostCode`, not `code`.
 */
export class HostError extends RpcError {
  /** The process-wide identity of this class (see `RpcError`). */
  static override readonly brand: symbol = errorBrand("HostError");

  override readonly name = "HostError";
  readonly details: HostErrorDetails;

  constructor(
    /** Which case this is; stable, for programs to match on. */
    readonly hostCode: HostErrorCode,
    message: string,
    options: HostErrorOptions = {},
  ) {
    super(
      hostCode === "REQUEST_TIMEOUT" ? ServerErrorCode.TOOL_TIMEOUT : JsonRpcErrorCode.INTERNAL_ERROR,
      message,
      options.data,
    );
    if (options.cause !== undefined) this.cause = options.cause;
    this.details = options.details ?? {};
  }
}

/** True for a {@link HostError} with one of `codes` (any code when none is given). */
export function isHostError<C extends HostErrorCode>(
  error: unknown,
  ...codes: C[]
): error is HostError & { hostCode: C } {
  return error instanceof HostError && (codes.length === 0 || codes.includes(error.hostCode as C));
}
