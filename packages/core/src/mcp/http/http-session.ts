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
import type { ClientResponse, SessionRecord, StreamLog } from "./shared/session-store.js";

/** What the client of a POST accepts as the answer (from its `Accept` header). */
export interface AnswerForms {
  readonly json: boolean;
  readonly eventStream: boolean;
}

/**
 * One POSTed request and its HTTP answer: plain JSON, unless the server has something to
 * send the client before the answer (progress, a sampling request) and the client accepts
 * an event stream, or the client accepts only an event stream; then the answer is the
 * stream's last event.
 */
export class HttpExchange {
  private streaming = false;
  private ended = false;
  private log: StreamLog | undefined;
  private sentEventId = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly accepts: AnswerForms,
    private readonly headers: Record<string, string>,
    /** Opens the log that makes the stream resumable; none: events are sent once, unnumbered. */
    private readonly openLog: () => StreamLog | undefined = () => undefined,
  ) {}

  /** True once the answer was written. */
  get answered(): boolean {
    return this.ended;
  }

  /**
   * True once the client holds an event id of this stream: gone, it can resume the stream
   * elsewhere (`Last-Event-ID`), so its call goes on, its events logged.
   */
  get resumable(): boolean {
    return this.sentEventId;
  }

  /** Sends a message ahead of the answer; false when the client takes JSON only or is gone for good. */
  push(message: object): boolean {
    if (!this.accepts.eventStream || this.ended || (this.res.destroyed && !this.log)) return false;
    if (!this.startStream()) return false;
    this.send(JSON.stringify(message), false);
    return true;
  }

  /** Sends the answer, a serialized JSON-RPC response. */
  finish(frame: string): void {
    if (this.ended || (this.res.destroyed && !this.log)) return;
    this.ended = true;
    if (!this.accepts.json) this.startStream();
    if (this.streaming) {
      this.send(frame, true);
      return;
    }
    this.res.writeHead(200, { ...this.headers, "content-type": "application/json" });
    this.res.end(frame);
  }

  /** Writes one event (numbered and logged when resumable); the final one ends the stream. */
  private send(frame: string, final: boolean): void {
    const id = this.log?.append(frame, final);
    if (this.res.destroyed) return;
    if (id !== undefined) this.sentEventId = true;
    const event = `${id === undefined ? "" : `id: ${id}\n`}event: message\ndata: ${frame}\n\n`;
    if (final) this.res.end(event);
    else this.res.write(event);
  }

  /** False when the stream cannot carry events: the client left before it began. */
  private startStream(): boolean {
    if (this.streaming) return true;
    if (this.res.destroyed) return false;
    this.res.writeHead(200, {
      ...this.headers,
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
    });
    this.streaming = true;
    this.log = this.openLog();
    return true;
  }
}

/** A request of the session whose answer has not gone out: its exchange and the call it serves. */
interface Pending {
  readonly exchange: HttpExchange;
  readonly id: RequestId;
  invokeId?: string;
}

/**
 * JSON-RPC error code answering a request whose call was cancelled or whose session ended
 * before its result (MCP has none of its own; this is LSP's `RequestCancelled`).
 */
export const REQUEST_ENDED_CODE = -32800;

/** A request this server sent its client, waiting for the answer the client POSTs back. */
interface PendingAsk {
  resolve(result: unknown): void;
  reject(error: Error): void;
  cleanup(): void;
}

/**
 * One MCP session over HTTP: an `McpSession` of the plugin server, its requests in flight
 * (each bound to the call it serves, so a tool's progress and sampling reach the POST that
 * started or resumed it, and a POST whose client goes away cancels that call only) and the
 * requests it sent the client.
 *
 * The modern era's session-less clients all share one session whose request ids are not
 * theirs alone (each client numbers its own): there `notifications/cancelled` cannot tell
 * whose call it names, so it cancels none; a client of that era cancels a call by closing
 * the call's POST, as the 2026-07-28 HTTP binding has it.
 */
export class HttpMcpSession {
  /** When a request last arrived; idle sessions expire. */
  lastSeen = Date.now();
  private readonly session: McpSession;
  private readonly pending = new Set<Pending>();
  private readonly asks = new Map<string, PendingAsk>();

  constructor(
    readonly id: string,
    open: (link: Pick<McpServerSide, "request" | "notify">) => McpSession,
    private readonly log: Logger,
    /** `shared` for the session of the modern era's clients, whose request ids may collide. */
    private readonly ids: "one-client" | "shared" = "one-client",
  ) {
    this.session = open({
      request: (method, params, options) => this.ask(method, params, options),
      notify: (method, params) => void this.exchangeOfRunningCall()?.push({ jsonrpc: "2.0", method, params }),
    });
  }

  /** Requests whose answer has not gone out yet. */
  get inFlight(): number {
    return this.pending.size;
  }

  /**
   * Takes over a session another replica began: its `initialize` is replayed here (the same
   * revision negotiated, the same client capabilities, the plugin's hook run), unanswered.
   */
  async adopt(record: SessionRecord): Promise<void> {
    await this.session.handle({ id: `adopt-${this.id}`, method: "initialize", params: record.initialize });
  }

  /** Handles a notification; a cancellation also answers the cancelled request's POST. */
  notify(request: IncomingRequest): void {
    this.lastSeen = Date.now();
    const cancelled = request.method === "notifications/cancelled";
    if (cancelled && this.ids === "shared") {
      this.log.info(
        "ignored notifications/cancelled without a session: its request id may be another client's; close the call's POST to cancel it",
      );
      return;
    }
    try {
      this.session.handle(request);
    } catch (error) {
      this.log.warn(`MCP notification ${request.method} failed: ${(error as Error).message}`);
    }
    if (!cancelled) return;
    const key = idKey((request.params as { requestId?: RequestId } | undefined)?.requestId);
    for (const pending of this.pending) {
      if (idKey(pending.id) === key) this.end(pending, "cancelled by the client");
    }
  }

  /** Answers a request on its exchange (as JSON or as the last event of a stream). */
  answer(request: IncomingRequest & { id: RequestId }, exchange: HttpExchange): Promise<boolean> {
    this.lastSeen = Date.now();
    const pending: Pending = { exchange, id: request.id };
    this.pending.add(pending);
    const done = (frame: string, ok: boolean) => {
      this.pending.delete(pending);
      exchange.finish(frame);
      return ok;
    };
    const bind = (invokeId: string) => {
      pending.invokeId = invokeId;
    };
    return Promise.resolve()
      .then(() => this.session.handle(request, bind))
      .then(
        (result) => done(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: result ?? null }), true),
        (error: unknown) => done(this.errorFrame(request, error), false),
      );
  }

  /** The client of `exchange` went away before its answer: the call it serves is cancelled so the tool can stop. */
  vanished(exchange: HttpExchange): void {
    const pending = [...this.pending].find((each) => each.exchange === exchange);
    if (!pending) return;
    if (exchange.resumable) {
      this.log.info(
        `MCP HTTP client left the stream of request ${JSON.stringify(pending.id)}; it may resume it`,
      );
      return;
    }
    this.pending.delete(pending);
    this.log.info(`MCP HTTP client went away before the answer to request ${JSON.stringify(pending.id)}`);
    if (pending.invokeId !== undefined) this.session.cancelCall(pending.invokeId, "client went away");
  }

  /** Routes a response the client POSTed to the request this server sent. */
  settle(response: ClientResponse): boolean {
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

  /** Ends the session: its calls are cancelled, their POSTs answered, and its requests to the client rejected. */
  close(why: string): void {
    for (const pending of [...this.pending]) {
      if (pending.invokeId !== undefined)
        this.session.cancelCall(pending.invokeId, `MCP session ended: ${why}`);
      this.end(pending, `MCP session ended: ${why}`);
    }
    for (const ask of this.asks.values()) {
      ask.cleanup();
      ask.reject(new RpcError(JsonRpcErrorCode.INTERNAL_ERROR, `MCP session ended: ${why}`));
    }
    this.asks.clear();
  }

  /** Answers a request whose call ended without a result with an error saying why. */
  private end(pending: Pending, why: string): void {
    this.pending.delete(pending);
    const error = { code: REQUEST_ENDED_CODE, message: `Request ended without a result: ${why}` };
    pending.exchange.finish(serializeErrorFrame(pending.id, error, MAX_FRAME_BYTES));
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
    if (invokeId === undefined) return undefined;
    for (const pending of this.pending) if (pending.invokeId === invokeId) return pending.exchange;
    return undefined;
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
