import { RpcError } from "../errors/rpc-error.js";
import type { IncomingRequest } from "../rpc/peer.js";
import { JsonRpcErrorCode } from "../wire/error-codes.js";

/**
 * What MCP forbids of a client's messages on one stdio connection, refused before the
 * session acts on them (over HTTP each `initialize` opens its own session):
 * - a notification method sent with an id. MCP says notifications carry none; JSON-RPC
 *   answers every message with an id, so it gets -32600 and is not acted on (as the
 *   official Go SDK does) rather than a result that pretends it was a request;
 * - a second `initialize`: a connection is initialized once, never renegotiated.
 */
export class McpStdioGate {
  private initialized = false;

  /** Throws the -32600 to answer `request` with, or lets it through. */
  check(request: IncomingRequest): void {
    if (request.id === undefined) return;
    if (request.method.startsWith("notifications/")) {
      throw new RpcError(
        JsonRpcErrorCode.INVALID_REQUEST,
        `${request.method} is a notification: MCP notifications carry no id, and this one was not acted on. ` +
          "Fix: send it without an id",
        { method: request.method },
      );
    }
    if (request.method !== "initialize") return;
    if (this.initialized) {
      throw new RpcError(
        JsonRpcErrorCode.INVALID_REQUEST,
        "initialize was already answered on this connection: an MCP session is initialized once. " +
          "Fix: keep the negotiated session, or start the server again to negotiate anew",
      );
    }
    this.initialized = true;
  }
}
