/** JSON-RPC 2.0 frames as they travel on the wire. */

export type RequestId = string | number;

/** A JSON-RPC error object. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A request (with `id`) or notification (without). */
export interface JsonRpcRequest<P = unknown> {
  jsonrpc: "2.0";
  id?: RequestId;
  method: string;
  params?: P;
}

export interface JsonRpcSuccess<R = unknown> {
  jsonrpc: "2.0";
  id: RequestId;
  result: R;
}

export interface JsonRpcFailure {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

/** A response pointing at a file that holds the real response (spec: file transport). */
export interface JsonRpcFileTransport {
  jsonrpc: "2.0";
  id: RequestId;
  __file_transport: string;
}

export type JsonRpcResponse<R = unknown> = JsonRpcSuccess<R> | JsonRpcFailure;

export type JsonRpcFrame = JsonRpcRequest | JsonRpcResponse | JsonRpcFileTransport;
