import { JsonRpcErrorCode, RpcError } from "@executa/core";

/**
 * The plugin answered, but not in the shape the spec requires (an `invoke` result
 * without a boolean `success`, a `health` status outside ready / error / initializing,
 * a manifest without tools, ...). `value` is what it sent.
 */
export class ProtocolViolationError extends RpcError {
  override readonly name = "ProtocolViolationError";
  constructor(
    readonly method: string,
    message: string,
    readonly value: unknown,
  ) {
    super(JsonRpcErrorCode.INTERNAL_ERROR, `${method}: ${message}`, { method, value });
  }
}
