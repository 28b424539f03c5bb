import { ServerErrorCode } from "../wire/error-codes.js";
import { errorBrand } from "./brand.js";
import { RpcError } from "./rpc-error.js";

/** An invoke ran past its deadline or its tool's timeout: answered with -32000. */
export class ToolTimeoutError extends RpcError {
  /** The process-wide identity of this class (see `RpcError`). */
  static override readonly brand: symbol = errorBrand("ToolTimeoutError");

  override readonly name = "ToolTimeoutError";
  constructor(tool: string, timeoutMs: number) {
    super(ServerErrorCode.TOOL_TIMEOUT, `Tool "${tool}" timed out after ${timeoutMs} ms`, {
      tool,
      timeout_ms: timeoutMs,
    });
  }
}
