import type { ServerResponse } from "node:http";
import { currentInvoke } from "../../context/invoke-context.js";
import { serializeErrorFrame } from "../../errors/error-frame.js";
import { RpcError } from "../../errors/rpc-error.js";
import type { Logger } from "../../log/logger.js";
import type { IncomingRequest, RequestOptions } from "../../rpc/peer.js";
import { uniqueId } from "../../rpc/unique-id.js";
import { JsonRpcErrorCode } from "../../wire/error-codes.js";
import type { RequestId } from "../../wire/jsonrpc.js";
import { MAX_FRAME_BYTES } from "../../wire/limits.js";
import { idKey, type McpServerSide, type McpSession } from "../mcp-session.js";

/**
 * One POSTed request and its HTTP answer: plain JSON, unless the server has something to
 * send the client before the answer (progress, a sampling request) and the client accepts
 * an event stream; then the answer becomes the stream's last event.
 */
export class HttpExchange {
  private streaming = false;
  private ended = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly canStream: boolean,
    private readonly headers: Record<string, string>,
  ) {}

  /** True once the answer (or the end of a cancelled call) was written. */
  get answered(): boolean {
    return this.ended;
  }

  /** True once the answer went out or the client went away. */
  get finished(): boolean {
    return this.ended || this.res.destroyed;
  }

  /** Sends a message ahead of the answer; false when the client takes JSON only or is gone. */
  push(message: object): boolean {
    if (!this.canStream || this.finished) return false;
    if (!this.streaming) {
      this.res.writeHead(200, {
        ...this.headers,
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
      });
      this.streaming = true;
    }
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    return true;
  }

  /** Sends the answer, a serialized JSON-RPC response. */
  finish(frame: string): void {
    if (this.finished) return;
    this.ended = true;
    if (this.streaming) {
      this.res.end(`event: message\ndata: ${frame}\n\n`);
      return;
    }
    this.res.writeHead(200, { ...this.headers, "content-type": "application/json" });
    this.res.end(frame);
  }

  /** Ends without an answer: the call was cancelled, which MCP never answers. */
  abandon(): void {
    if (this.finished) return;
    this.ended = true;
    if (this.streaming) this.res.end();
    else this.res.writeHead(202, this.headers).end();
  }
}

/** A request this server sent its client, waiting for the answer the client POSTs back. */
interface PendingAsk {
  resolve(result: unknown): void;
  reject(error: Error): void;
  cleanup(): void;
}

/**
 * One MCP session over HTTP: an `McpSession` of the plugin server, the exchanges of its
 * requests in flight (by the invoke id its tool calls run under, so a tool's progress and
 * sampling reach the POST that started it) and the requests it sent the client.
 */
export class HttpMcpSession {
  /** When a request last arrived; idle sessions expire. */
  lastSeen = Date.now();
  private readonly session: McpSession;
  private readonly exchanges = new Map<string, { exchange: HttpExchange; id: RequestId }>();
  private readonly asks = new Map<string, PendingAsk>();

  constructor(
    readonly id: string,
    open: (link: Pick<McpServerSide, "request" | "notify">) => McpSession,
    private readonly log: Logger,
  ) {
    this.session = open({
      request: (method, params, options) => this.ask(method, params, options),
      notify: (method, params) => void this.exchangeOfRunningCall()?.push({ jsonrpc: "2.0", method, params }),
    });
  }

  /** Requests whose answer has not gone out yet. */
  get inFlight(): number {
    return this.exchanges.size;
  }

  /** Handles a notification; a cancellation also ends the cancelled request's exchange. */
  notify(request: IncomingRequest): void {
    this.lastSeen = Date.now();
    try {
      this.session.handle(request);
    } catch (error) {
      this.log.warn(`MCP notification ${request.method} failed: ${(error as Error).message}`);
    }
    if (request.method !== "notifications/cancelled") return;
    const key = idKey((request.params as { requestId?: RequestId } | undefined)?.requestId);
    if (key !== undefined) this.exchanges.get(key)?.exchange.abandon();
  }

  /** Answers a request on its exchange (as JSON or as the last event of a stream). */
  answer(request: IncomingRequest & { id: RequestId }, exchange: HttpExchange): Promise<boolean> {
    this.lastSeen = Date.now();
    const key = idKey(request.id) as string;
    this.exchanges.set(key, { exchange, id: request.id });
    const done = (frame: string, ok: boolean) => {
      if (this.exchanges.get(key)?.exchange === exchange) this.exchanges.delete(key);
      exchange.finish(frame);
      return ok;
    };
    return Promise.resolve()
      .then(() => this.session.handle(request))
      .then(
        (result) => done(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: result ?? null }), true),
        (error: unknown) => done(this.errorFrame(request, error), false),
      );
  }

  /** The client went away before its answer: its call is cancelled so the tool can stop. */
  vanished(id: RequestId): void {
    const key = idKey(id) as string;
    if (!this.exchanges.has(key)) return;
    this.exchanges.delete(key);
    this.log.info(`MCP HTTP client went away before the answer to request ${JSON.stringify(id)}`);
    this.notify({ method: "notifications/cancelled", params: { requestId: id, reason: "client went away" } });
  }

  /** Routes a response the client POSTed to the request this server sent. */
  settle(response: {
    id: RequestId;
    result?: unknown;
    error?: { code?: unknown; message?: unknown; data?: unknown };
  }): boolean {
    const ask = this.asks.get(String(response.id));
    if (!ask) return false;
    this.asks.delete(String(response.id));
    ask.cleanup();
    const { error } = response;
    if (error === undefined || error === null) ask.resolve(response.result);
    else {
      const code = typeof error.code === "number" ? error.code : JsonRpcErrorCode.INTERNAL_ERROR;
      ask.reject(new RpcError(code, String(error.message ?? "error without a message"), error.data));
    }
    return true;
  }

  /** Ends the session: its calls are cancelled and its requests to the client rejected. */
  close(why: string): void {
    for (const { exchange, id } of [...this.exchanges.values()]) {
      this.vanished(id);
      exchange.abandon();
    }
    for (const ask of this.asks.values()) {
      ask.cleanup();
      ask.reject(new RpcError(JsonRpcErrorCode.INTERNAL_ERROR, `MCP session ended: ${why}`));
    }
    this.asks.clear();
  }

  private errorFrame(request: IncomingRequest & { id: RequestId }, error: unknown): string {
    if (error instanceof RpcError) return serializeErrorFrame(request.id, error.toJSON(), MAX_FRAME_BYTES);
    this.log.error(`${request.method} failed: ${(error as Error)?.stack ?? String(error)}`);
    const internal = { code: JsonRpcErrorCode.INTERNAL_ERROR, message: "Internal error" };
    return serializeErrorFrame(request.id, internal, MAX_FRAME_BYTES);
  }

  /** The exchange of the `tools/call` whose tool code is running now, if any. */
  private exchangeOfRunningCall(): HttpExchange | undefined {
    const invokeId = currentInvoke()?.invokeId;
    if (invokeId === undefined || !invokeId.startsWith("mcp-")) return undefined;
    return this.exchanges.get(invokeId.slice(4))?.exchange;
  }

  /** Sends a request to the client on the stream of the call that asks it. */
  private ask(method: string, params: unknown, options: RequestOptions = {}): Promise<unknown> {
    const exchange = this.exchangeOfRunningCall();
    const id = uniqueId();
    if (!exchange?.push({ jsonrpc: "2.0", id, method, params })) {
      return Promise.reject(
        new RpcError(
          JsonRpcErrorCode.INTERNAL_ERROR,
          `${method} cannot reach the MCP client: its POST does not accept text/event-stream (add it to Accept)`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const timer =
        options.timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              this.asks.delete(id);
              reject(
                options.timeoutError?.() ??
                  new RpcError(JsonRpcErrorCode.INTERNAL_ERROR, `${method} timed out`),
              );
            }, options.timeoutMs);
      const onAbort = () => {
        this.asks.delete(id);
        clearTimeout(timer);
        reject(options.signal?.reason);
      };
      options.signal?.addEventListener("abort", onAbort, { once: true });
      const cleanup = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      };
      this.asks.set(id, { resolve, reject, cleanup });
    });
  }
}
