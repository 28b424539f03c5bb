import { JsonRpcErrorCode } from "../wire/error-codes.js";
import { errorBrand } from "./brand.js";
import { previewText } from "./preview.js";
import { RpcError } from "./rpc-error.js";

/** A request named a method the plugin does not serve: -32601, the name cut to a preview. */
export class MethodNotFoundError extends RpcError {
  /** The process-wide identity of this class (see `RpcError`). */
  static override readonly brand: symbol = errorBrand("MethodNotFoundError");

  override readonly name = "MethodNotFoundError";
  constructor(method: string) {
    super(JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${previewText(method)}`);
  }
}
