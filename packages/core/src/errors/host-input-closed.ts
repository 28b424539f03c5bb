import { JsonRpcErrorCode } from "../wire/error-codes.js";
import { errorBrand } from "./brand.js";
import { RpcError } from "./rpc-error.js";

/** `data.reason` of the error a reverse call fails with when the host's input ended. */
export const HOST_INPUT_CLOSED = "host_input_closed";

/**
 * A reverse call (plugin → host) that can get no reply: the host closed the plugin's stdin.
 * Answered with -32603 and `data.reason` {@link HOST_INPUT_CLOSED}, which a reader of the
 * answer (the batch conformance run) recognises with {@link isHostInputClosed}.
 */
export class HostInputClosedError extends RpcError {
  /** The process-wide identity of this class (see `RpcError`). */
  static override readonly brand: symbol = errorBrand("HostInputClosedError");

  override readonly name = "HostInputClosedError";
  constructor() {
    super(JsonRpcErrorCode.INTERNAL_ERROR, "host closed stdin; no reply can arrive", {
      reason: HOST_INPUT_CLOSED,
    });
  }
}

/** True for the wire form of a {@link HostInputClosedError} (also as a capability family's error). */
export function isHostInputClosed(error: { code: unknown; data?: unknown } | undefined): boolean {
  const data = error?.data;
  return (
    error?.code === JsonRpcErrorCode.INTERNAL_ERROR &&
    typeof data === "object" &&
    data !== null &&
    (data as { reason?: unknown }).reason === HOST_INPUT_CLOSED
  );
}
