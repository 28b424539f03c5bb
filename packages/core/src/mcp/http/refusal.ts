import type { ServerResponse } from "node:http";
import { JsonRpcErrorCode } from "../../wire/error-codes.js";

/** The code MCP servers use for transport-level refusals (session, method, state). */
export const TRANSPORT_ERROR = -32000;
export const INVALID = JsonRpcErrorCode.INVALID_REQUEST;

/** An HTTP-level refusal, answered with a JSON-RPC error body (`id: null`). */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Answers `refusal`; a response already under way is cut off instead. */
export function refuse(res: ServerResponse, refusal: Refusal): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: null,
    error: { code: refusal.code, message: refusal.message },
  });
  res.writeHead(refusal.status, { ...refusal.headers, "content-type": "application/json" }).end(body);
}
