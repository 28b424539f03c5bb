import { JsonRpcErrorCode } from "../wire/error-codes.js";
import { RpcError } from "./rpc-error.js";

/** One problem with one argument. */
export interface ParamIssue {
  /** Dotted path of the argument, e.g. `address.city` or `tags.2`. */
  path: string;
  message: string;
  /** The type or values expected, when that is what went wrong. */
  expected?: string;
}

/** Invalid or missing arguments: answered as -32602 with the issues in `error.data`. */
export class InvalidParamsError extends RpcError {
  override readonly name = "InvalidParamsError";
  constructor(
    message: string,
    readonly issues: ParamIssue[] = [],
    extra: Record<string, unknown> = {},
  ) {
    super(JsonRpcErrorCode.INVALID_PARAMS, message, { issues, ...extra });
  }
}
