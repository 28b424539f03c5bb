import { JsonRpcErrorCode } from "../wire/error-codes.js";
import { errorBrand } from "./brand.js";
import { previewText } from "./preview.js";
import { RpcError } from "./rpc-error.js";

/** An invoke named a tool the plugin does not have: -32601, the name cut to a preview. */
export class UnknownToolError extends RpcError {
  /** The process-wide identity of this class (see `RpcError`). */
  static override readonly brand: symbol = errorBrand("UnknownToolError");

  override readonly name = "UnknownToolError";
  constructor(tool: string, available: readonly string[]) {
    const shown = previewText(tool);
    super(JsonRpcErrorCode.METHOD_NOT_FOUND, `Unknown tool: ${shown}`, {
      tool: shown,
      ...(shown === tool ? {} : { tool_length: tool.length }),
      available: [...available],
    });
  }
}
