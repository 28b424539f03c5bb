import type { JsonRpcErrorObject } from "../wire/jsonrpc.js";
import { errorBrand, isBrandedInstance, markBrands } from "./brand.js";

/**
 * A JSON-RPC error: thrown by request handlers to answer with an error frame, and
 * raised by the peer when a reverse call is answered with one.
 *
 * `instanceof RpcError` (and of a subclass with its own `brand`) also holds for an error
 * made by another copy of this package in the same process, so its code is never lost.
 */
export class RpcError extends Error {
  /** The process-wide identity of this class (see `instanceof`). */
  static readonly brand: symbol = errorBrand("RpcError");

  /** True for instances of this class, also when made by another copy of the package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class checked against, a subclass included
    return isBrandedInstance(this, value);
  }

  override readonly name: string = "RpcError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    markBrands(this, new.target);
  }

  /** The wire form of this error. */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}
