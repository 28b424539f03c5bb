import type { JsonRpcErrorObject } from "../wire/jsonrpc.js";

/**
 * A JSON-RPC error: thrown by request handlers to answer with an error frame, and
 * raised by the peer when a reverse call is answered with one.
 */
export class RpcError extends Error {
  override readonly name: string = "RpcError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  /** The wire form of this error. */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}
