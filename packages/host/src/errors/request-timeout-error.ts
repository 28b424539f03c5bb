import { RpcError, ServerErrorCode } from "@executa/core";

/**
 * A host → plugin request got no answer in time (`describe` 5 s, `health` 3 s, an
 * invoke's tool timeout). Uses the JSON-RPC timeout code -32000, as the spec's
 * "the request resolves with a JSON-RPC timeout error".
 */
export class RequestTimeoutError extends RpcError {
  override readonly name = "RequestTimeoutError";
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
    readonly tool?: string,
  ) {
    super(
      ServerErrorCode.TOOL_TIMEOUT,
      tool === undefined
        ? `${method} timed out after ${timeoutMs} ms`
        : `Tool "${tool}" timed out after ${timeoutMs} ms`,
      tool === undefined ? { method, timeout_ms: timeoutMs } : { method, tool, timeout_ms: timeoutMs },
    );
  }
}
