import { abortReason } from "../errors/abort-reason.js";
import { serializeErrorFrame } from "../errors/error-frame.js";
import { previewText } from "../errors/preview.js";
import { RpcError } from "../errors/rpc-error.js";
import { FrameWriter } from "../framing/frame-writer.js";
import type { LineEvent } from "../framing/line-reader.js";
import { createLogger, type Logger } from "../log/logger.js";
import type { Transport, TransportReceiver } from "../transport/transport.js";
import {
  classifyFrame,
  type FrameClass,
  type NotAFrameClass,
  type NotificationFrameClass,
  type RequestFrameClass,
  type ResponseFrameClass,
} from "../wire/classify-frame.js";
import { JsonRpcErrorCode } from "../wire/error-codes.js";
import type { JsonRpcErrorObject, RequestId } from "../wire/jsonrpc.js";
import { FILE_TRANSPORT_THRESHOLD_BYTES, MAX_FRAME_BYTES } from "../wire/limits.js";
import { withIdText } from "../wire/parse-frame.js";
import { writeTransportFile } from "./file-transport.js";
import { RequestQueue } from "./request-queue.js";
import { uniqueId } from "./unique-id.js";

/** A request or notification that arrived from the other side. */
export interface IncomingRequest {
  /** Absent for a notification, which is handled but never answered. */
  id?: RequestId | null;
  /**
   * The id exactly as the other side wrote it, when it is a number that `id` cannot hold
   * exactly (e.g. above 2^53); the answer echoes this text.
   */
  idText?: string;
  method: string;
  params: unknown;
}

/** Answers one incoming request: return the result, or throw an {@link RpcError}. */
export type RequestHandler = (request: IncomingRequest) => unknown;

/** Options of one outgoing request. */
export interface RequestOptions {
  /** Rejects with `timeoutError` (or -32603) when no answer came in time. */
  timeoutMs?: number;
  /** Rejects with the signal's reason when it aborts; the answer, if any, is then dropped. */
  signal?: AbortSignal;
  /** The error to reject with on timeout. */
  timeoutError?: () => Error;
}

export interface PeerOptions {
  /** Where frames come from and go to. */
  transport: Transport;
  handleRequest: RequestHandler;
  log?: Logger;
  /** The frame limit the peer names when it refuses an oversized line, and caps its answers at. Default 16 MiB. */
  maxFrameBytes?: number;
  /** Results whose frame is larger than this go by file transport. `Infinity` disables it. */
  fileTransportThresholdBytes?: number;
  /** Where file-transport files are written; a private temp directory by default. */
  fileTransportDir?: string;
  /** Told the size of every result frame, e.g. to warn when an invoke result is large. */
  onResultSize?: (method: string, bytes: number) => void;
  /** Called once when the input ends. */
  onInputEnd?: () => void;
  /** Called once when the output breaks (EPIPE: the other side went away). */
  onOutputBroken?: (error: Error) => void;
  /** Makes ids for outgoing requests; random UUIDs by default. */
  newId?: () => string;
  /** Holds back requests of some methods while this event-loop turn has done enough work. */
  pacing?: RequestPacing;
}

/**
 * Which requests wait for a later event-loop turn, and when. A request that is `deferrable`
 * is held, in arrival order, while `mustYield()` is true (or while others of its kind wait)
 * and dispatched in a later turn; timers, signals and other requests (e.g. `health`) are
 * handled in between. Holding the request as read costs less than starting it late: its
 * handler, once dispatched, runs the same way as one that never waited.
 */
export interface RequestPacing {
  /** True for the methods that may wait (e.g. `invoke`). */
  deferrable: (method: string) => boolean;
  /** True while this turn has done enough work. */
  mustYield: () => boolean;
}

/**
 * Input pauses, and requests already read wait, while more than this many bytes of frames
 * wait to be written: a reader that stops reading our output must not make us buffer
 * answers without bound. Each pending byte costs about three in memory (the answer's
 * string, the joined write, the stream's native copy), so the mark is kept low; a single
 * larger answer only pauses input until the reader has taken it.
 */
const OUTPUT_HIGH_WATER_BYTES = 1024 * 1024;
/**
 * Input resumes once the backlog is under this: well below the high mark, so input does
 * not toggle on every frame written.
 */
const OUTPUT_LOW_WATER_BYTES = 256 * 1024;

/**
 * Input pauses while this many requests are held (see {@link RequestPacing}), so a host
 * that pipelines faster than tools run does not make us hold its whole backlog; it resumes
 * once half of them are dispatched.
 */
const HELD_REQUESTS_HIGH_WATER = 1024;

/** How many abandoned request ids a peer remembers; an answer later than that many newer abandons warns. */
const ABANDONED_IDS_KEPT = 1024;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
}

/**
 * A bidirectional JSON-RPC 2.0 peer over a {@link Transport}: it dispatches incoming
 * requests to one handler and answers them (in whatever order they settle), and sends
 * outgoing requests whose answers it routes back by id through one pending table.
 */
export class JsonRpcPeer {
  private readonly pending = new Map<RequestId, Pending>();
  /** Ids this peer stopped waiting for (timed out or aborted): their late answers are expected. */
  private readonly abandoned = new Set<RequestId>();
  private readonly writer: FrameWriter;
  private readonly transport: Transport;
  private readonly log: Logger;
  private threshold: number;
  /** Input is paused, and requests are held, because too much output waits to be written. */
  private outputBacklogged = false;
  /** Requests read but not dispatched yet: held for output backlog or pacing. */
  private readonly held = new RequestQueue<IncomingRequest>();
  /** Input is paused because {@link HELD_REQUESTS_HIGH_WATER} requests are held. */
  private heldFull = false;
  private drainScheduled = false;
  private readonly drainLater = () => {
    this.drainScheduled = false;
    this.drainHeld();
  };
  private reading = true;
  private inputClosed = false;

  constructor(private readonly options: PeerOptions) {
    this.log = options.log ?? createLogger("executa");
    this.threshold = options.fileTransportThresholdBytes ?? FILE_TRANSPORT_THRESHOLD_BYTES;
    this.transport = options.transport;
    this.writer = new FrameWriter(
      options.transport.output,
      (error) => {
        this.rejectAll(new RpcError(JsonRpcErrorCode.INTERNAL_ERROR, `output closed: ${error.message}`));
        options.onOutputBroken?.(error);
      },
      {
        highWaterBytes: OUTPUT_HIGH_WATER_BYTES,
        lowWaterBytes: OUTPUT_LOW_WATER_BYTES,
        onChange: (over) => this.onOutputBacklog(over),
      },
    );
    const receiver: TransportReceiver = {
      line: (event) => this.onLine(event),
      frame: (frame, text) => this.onFrame(frame, text),
      end: () => this.inputEnded(),
    };
    options.transport.open(receiver);
  }

  /** Number of outgoing requests still waiting for an answer. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** True once the output broke; nothing more can be sent. */
  get outputBroken(): boolean {
    return this.writer.isBroken;
  }

  /** Whether the input has ended: no answer to a request can arrive any more. */
  get inputHasEnded(): boolean {
    return this.inputClosed;
  }

  /** Sends a request and resolves with its result, or rejects with an {@link RpcError}. */
  request(method: string, params?: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (this.writer.isBroken) {
      return Promise.reject(new RpcError(JsonRpcErrorCode.INTERNAL_ERROR, "output closed"));
    }
    if (this.inputClosed) {
      return Promise.reject(
        new RpcError(
          JsonRpcErrorCode.INTERNAL_ERROR,
          `cannot send ${method}: the input ended, so no answer can arrive`,
        ),
      );
    }
    const { signal, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const id = (this.options.newId ?? uniqueId)();
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        this.abandon(id);
        cleanup();
        reject(abortReason(signal!));
      };
      const cleanup = () => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
        timer = setTimeout(
          () => {
            this.abandon(id);
            cleanup();
            reject(
              options.timeoutError?.() ??
                new RpcError(JsonRpcErrorCode.INTERNAL_ERROR, `${method} timed out after ${timeoutMs} ms`),
            );
          },
          Math.max(0, timeoutMs),
        );
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, { resolve, reject, cleanup });
      const frame =
        params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
      this.send(frame);
    });
  }

  /** Sends a notification (no id, no answer). */
  notify(method: string, params?: unknown): void {
    this.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  /** Answers every result inline from now on: for a peer whose other side reads no file-transport pointers. */
  disableFileTransport(): void {
    this.threshold = Number.POSITIVE_INFINITY;
  }

  /** Stops reading input; frames already read are still handled. */
  stopReading(): void {
    if (!this.reading) return;
    this.reading = false;
    this.transport.close();
  }

  /**
   * Dispatches every held request at once, whatever the pacing says: for a stop, which
   * answers them (e.g. -32099) instead of leaving them unanswered.
   */
  releaseHeld(): void {
    for (let request = this.held.shift(); request; request = this.held.shift()) this.dispatch(request);
    this.afterDrain();
  }

  /** Rejects every outgoing request still pending. */
  rejectAll(error: Error): void {
    for (const [id, entry] of this.pending) {
      this.pending.delete(id);
      entry.cleanup();
      entry.reject(error);
    }
  }

  /** Resolves once everything written so far has been handed to the OS. */
  flushed(): Promise<void> {
    return this.writer.idle();
  }

  private onOutputBacklog(over: boolean): void {
    this.outputBacklogged = over;
    if (over) {
      if (this.reading) this.transport.pause();
    } else {
      this.drainHeld();
      this.resumeIfFree();
    }
  }

  /** Resumes input unless a reason to keep it paused still holds. */
  private resumeIfFree(): void {
    if (this.reading && !this.outputBacklogged && !this.heldFull) this.transport.resume();
  }

  /**
   * Whether a request read now must wait: always while output is backlogged (an answer
   * would only add to it), and a deferrable one while the turn must yield or others of
   * its kind already wait (so they keep their order).
   */
  private mustHold(request: IncomingRequest): boolean {
    if (this.outputBacklogged) return true;
    const pacing = this.options.pacing;
    if (!pacing?.deferrable(request.method)) return false;
    return this.held.length > 0 || pacing.mustYield();
  }

  private hold(request: IncomingRequest): void {
    this.held.push(request);
    if (!this.heldFull && this.held.length >= HELD_REQUESTS_HIGH_WATER) {
      this.heldFull = true;
      this.transport.pause();
    }
    if (!this.outputBacklogged) this.scheduleDrain();
  }

  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(this.drainLater);
  }

  /** Dispatches held requests in order until one must wait again. */
  private drainHeld(): void {
    const pacing = this.options.pacing;
    for (let next = this.held.peek(); next; next = this.held.peek()) {
      if (this.outputBacklogged) break;
      if (pacing?.deferrable(next.method) && pacing.mustYield()) {
        this.scheduleDrain();
        break;
      }
      this.held.shift();
      this.dispatch(next);
    }
    this.afterDrain();
  }

  private afterDrain(): void {
    if (this.heldFull && this.held.length <= HELD_REQUESTS_HIGH_WATER / 2) {
      this.heldFull = false;
      this.resumeIfFree();
    }
  }

  private inputEnded(): void {
    this.inputClosed = true;
    if (!this.reading) return;
    this.reading = false;
    this.options.onInputEnd?.();
  }

  private onLine(event: LineEvent): void {
    if (event.kind === "oversized") {
      this.log.warn(`discarded an oversized frame of ${event.bytes} bytes`);
      this.sendError(null, {
        code: JsonRpcErrorCode.INVALID_REQUEST,
        message: `Frame exceeds the ${this.options.maxFrameBytes ?? MAX_FRAME_BYTES} byte limit (${event.bytes} bytes); discarded`,
      });
      return;
    }
    if (event.kind === "invalid-utf8") {
      this.sendError(null, {
        code: JsonRpcErrorCode.PARSE_ERROR,
        message: "Parse error: frame is not valid UTF-8",
      });
      return;
    }
    this.onFrame(classifyFrame(event.text), event.text);
  }

  private onFrame(frame: FrameClass, text: string): void {
    try {
      this.route(frame, text);
    } catch (error) {
      // Dropped alone: the frames after it in the same chunk are still read.
      this.log.error(`dropped a frame that could not be handled (${describe(error)}): ${previewText(text)}`);
    }
  }

  private route(frame: FrameClass, text: string): void {
    switch (frame.kind) {
      case "request": {
        const request = incomingRequest(frame);
        if (this.mustHold(request)) this.hold(request);
        else this.dispatch(request);
        return;
      }
      case "notification":
        this.dispatch(incomingRequest(frame));
        return;
      case "response":
        this.onResponse(frame, text);
        return;
      case "not-a-frame":
        this.onNotAFrame(frame, text);
    }
  }

  private onResponse(frame: ResponseFrameClass, text: string): void {
    if (frame.id === null) {
      this.log.warn(`dropped a response without a usable id: ${previewText(text)}`);
    } else if (frame.outcome === "file-transport") {
      // Pointers are resolved by whoever reads the other side's output (the host's demux).
      this.log.warn(`dropped a file-transport pointer this peer does not read: ${previewText(text)}`);
    } else {
      this.settle(frame.id, frame.frame, frame.idText);
    }
  }

  private onNotAFrame(frame: NotAFrameClass, text: string): void {
    if (frame.reason === "not-json") {
      this.sendError(null, { code: JsonRpcErrorCode.PARSE_ERROR, message: `Parse error: ${frame.why}` });
    } else if (frame.attempted !== "response") {
      this.invalid(frame.replyId, frame.why, frame.replyIdText);
    } else if (frame.reason === "wrong-jsonrpc" || frame.reason === "missing-jsonrpc") {
      // A response is never answered, not even a malformed one: two peers would
      // otherwise trade error frames forever.
      this.log.warn(`dropped a response without "jsonrpc":"2.0": ${previewText(text)}`);
    } else {
      this.log.warn(`dropped a response without a usable id: ${previewText(text)}`);
    }
  }

  /** Stops waiting for `id`, remembering it (the latest {@link ABANDONED_IDS_KEPT}) so its late answer is no surprise. */
  private abandon(id: RequestId): void {
    this.pending.delete(id);
    this.abandoned.add(id);
    if (this.abandoned.size > ABANDONED_IDS_KEPT) {
      this.abandoned.delete(this.abandoned.values().next().value as RequestId);
    }
  }

  private settle(id: RequestId, frame: Record<string, unknown>, idText?: string): void {
    const entry = this.pending.get(id);
    if (!entry) {
      const shown = previewText(idText ?? JSON.stringify(id));
      if (this.abandoned.delete(id)) this.log.debug(`dropped the late response for abandoned id ${shown}`);
      else this.log.warn(`dropped a response for unknown id ${shown}`);
      return;
    }
    this.pending.delete(id);
    entry.cleanup();
    if ("error" in frame && frame.error !== undefined && frame.error !== null) {
      const error = frame.error as Partial<JsonRpcErrorObject>;
      entry.reject(
        new RpcError(
          typeof error.code === "number" ? error.code : JsonRpcErrorCode.INTERNAL_ERROR,
          typeof error.message === "string" ? error.message : "error without a message",
          error.data,
        ),
      );
    } else {
      entry.resolve(frame.result);
    }
  }

  private dispatch(request: IncomingRequest): void {
    let outcome: unknown;
    try {
      outcome = this.options.handleRequest(request);
    } catch (error) {
      this.answerError(request, error);
      return;
    }
    if (outcome instanceof Promise) {
      outcome.then(
        (result) => this.answer(request, result),
        (error) => this.answerError(request, error),
      );
    } else {
      this.answer(request, outcome);
    }
  }

  private answer(request: IncomingRequest, result: unknown): void {
    if (request.id === undefined) return;
    const id = request.id;
    let serialized: string;
    try {
      serialized = stringifyResponse({ jsonrpc: "2.0", id, result: result ?? null }, request.idText);
    } catch (error) {
      this.log.error(`${request.method}: result cannot be serialized: ${(error as Error).message}`);
      this.sendError(
        id,
        {
          code: JsonRpcErrorCode.INTERNAL_ERROR,
          message: `Result cannot be serialized: ${(error as Error).message}`,
        },
        request.idText,
      );
      return;
    }
    const bytes = Buffer.byteLength(serialized);
    this.options.onResultSize?.(request.method, bytes);
    let transportFailure: string | undefined;
    if (bytes > this.threshold && id !== null) {
      try {
        const path = writeTransportFile(serialized, this.options.fileTransportDir);
        this.writer.write(stringifyResponse({ jsonrpc: "2.0", id, __file_transport: path }, request.idText));
        return;
      } catch (error) {
        transportFailure = (error as Error).message;
        this.log.error(`file transport failed: ${transportFailure}`);
      }
    }
    const maxFrameBytes = this.options.maxFrameBytes ?? MAX_FRAME_BYTES;
    if (bytes > maxFrameBytes) {
      // The host drops an over-ceiling line: a clear error beats an unanswered request.
      this.sendError(
        id,
        {
          code: JsonRpcErrorCode.INTERNAL_ERROR,
          message:
            `Result of ${bytes} bytes exceeds the ${maxFrameBytes}-byte frame limit and ` +
            (transportFailure === undefined
              ? "file transport is not available for it"
              : `could not be written by file transport: ${transportFailure}`),
          data: { result_bytes: bytes, max_frame_bytes: maxFrameBytes },
        },
        request.idText,
      );
      return;
    }
    this.writer.write(serialized);
  }

  private answerError(request: IncomingRequest, error: unknown): void {
    if (request.id === undefined) {
      if (!(error instanceof RpcError))
        this.log.error(`notification ${request.method} failed: ${describe(error)}`);
      return;
    }
    if (error instanceof RpcError) {
      this.sendError(request.id, error.toJSON(), request.idText);
      return;
    }
    this.log.error(`${request.method} failed: ${describe(error)}`);
    this.sendError(
      request.id,
      { code: JsonRpcErrorCode.INTERNAL_ERROR, message: "Internal error" },
      request.idText,
    );
  }

  private invalid(id: RequestId | null, why: string, idText?: string): void {
    this.sendError(
      id,
      { code: JsonRpcErrorCode.INVALID_REQUEST, message: `Invalid request: ${why}` },
      idText,
    );
  }

  /** `idText`, when given, is the id's exact JSON text (see {@link IncomingRequest.idText}). */
  private sendError(id: RequestId | null, error: JsonRpcErrorObject, idText?: string): void {
    const maxBytes = this.options.maxFrameBytes ?? MAX_FRAME_BYTES;
    this.writer.write(
      idText === undefined
        ? serializeErrorFrame(id, error, maxBytes)
        : withIdText(serializeErrorFrame(null, error, maxBytes), idText),
    );
  }

  private send(frame: object): void {
    this.writer.write(JSON.stringify(frame));
  }
}

/** A response frame as JSON; with `idText`, the id is written as that exact text. */
function stringifyResponse(
  frame: { jsonrpc: "2.0"; id: RequestId | null; [member: string]: unknown },
  idText?: string,
): string {
  return idText === undefined
    ? JSON.stringify(frame)
    : withIdText(JSON.stringify({ ...frame, id: null }), idText);
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** A request or notification as the handlers see it. */
function incomingRequest(frame: RequestFrameClass | NotificationFrameClass): IncomingRequest {
  if (frame.kind === "notification") return { method: frame.method, params: frame.params };
  const request: IncomingRequest = { id: frame.id, method: frame.method, params: frame.params };
  if (frame.idText !== undefined) request.idText = frame.idText;
  return request;
}
