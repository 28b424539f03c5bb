import { PassThrough, type Readable } from "node:stream";
import { JsonRpcErrorCode, LineReader, type Logger, type RequestId } from "@executa/core";
import { DEFAULT_MAX_FILE_TRANSPORT_BYTES, takeTransportFile } from "./file-transport-reader.js";

export interface StdoutDemuxOptions {
  /** Longest stdout line accepted (the spec's 16 MiB). */
  maxFrameBytes: number;
  /** Largest file-transport file read. */
  maxFileTransportBytes?: number;
  /** A stdout line that is not a JSON-RPC frame: tolerated, never interpreted. */
  onDebugLine: (line: string) => void;
  /**
   * A response no request can own: `id` null or missing (e.g. the plugin's answer to a
   * frame it could not parse). Kept from the peer, which would answer it with -32600
   * and could start two peers replying to each other's errors forever.
   */
  onOrphanResponse?: (frame: Record<string, unknown>) => void;
  log: Logger;
}

/**
 * Sits between the plugin's stdout and the JSON-RPC peer, because the peer must only
 * see frames it understands:
 *
 * - lines that are not JSON-RPC frames (debug prints, JSON logs) go to `onDebugLine`
 *   instead of being answered with a parse error (spec: "tolerated (debug-logged) but
 *   never interpreted as results");
 * - `{"id", "__file_transport": path}` pointers are replaced by the response inside the
 *   file, which is then deleted; a file that cannot be used becomes an error response
 *   for that id, so the caller learns why at once;
 * - responses with a null or missing id go to `onOrphanResponse`;
 * - lines over the frame limit are dropped with an error log.
 *
 * Frames reach {@link frames} in the order the plugin wrote them.
 */
export class StdoutDemux {
  /** The protocol frames, one per line: the input for the peer. */
  readonly frames = new PassThrough();
  private readonly reader: LineReader;
  private queued = 0;
  private tail: Promise<void> = Promise.resolve();

  constructor(
    source: Readable,
    private readonly options: StdoutDemuxOptions,
  ) {
    this.reader = new LineReader(
      (event) => {
        if (event.kind === "line") this.onLine(event.text);
        else if (event.kind === "oversized") {
          options.log.error(
            `plugin wrote a ${event.bytes} byte stdout line, above the ${options.maxFrameBytes} byte frame limit; dropped (use file transport for large results)`,
          );
        } else {
          options.onDebugLine(`<${event.bytes} bytes of invalid UTF-8>`);
        }
      },
      { maxLineBytes: options.maxFrameBytes },
    );
    source.on("data", (chunk: Buffer) => this.reader.push(chunk));
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.reader.end();
      void this.tail.then(() => this.frames.end());
    };
    source.once("end", end);
    source.once("close", end);
  }

  private onLine(text: string): void {
    const frame = parseFrame(text);
    if (frame === undefined) {
      this.options.onDebugLine(text);
      return;
    }
    if (!("method" in frame) && (frame.id === null || frame.id === undefined)) {
      this.options.onOrphanResponse?.(frame);
      return;
    }
    const pointer = frame.__file_transport;
    if (typeof pointer === "string" && !("method" in frame)) {
      const id = frame.id;
      if (typeof id !== "string" && typeof id !== "number") {
        this.options.log.error(`dropped a file-transport pointer without a usable id: ${text.slice(0, 200)}`);
        return;
      }
      this.enqueue(() => this.resolveFileTransport(id, pointer));
      return;
    }
    if (this.queued === 0) this.forward(text);
    else this.enqueue(async () => text);
  }

  private enqueue(produce: () => Promise<string>): void {
    this.queued += 1;
    this.tail = this.tail.then(async () => {
      try {
        this.forward(await produce());
      } finally {
        this.queued -= 1;
      }
    });
  }

  private forward(text: string): void {
    this.frames.write(`${text}\n`);
  }

  private async resolveFileTransport(id: RequestId, path: string): Promise<string> {
    let text: string;
    try {
      text = await takeTransportFile(
        path,
        this.options.maxFileTransportBytes ?? DEFAULT_MAX_FILE_TRANSPORT_BYTES,
      );
    } catch (error) {
      return errorFrame(id, `file transport: cannot read ${path}: ${(error as Error).message}`);
    }
    let inner: unknown;
    try {
      inner = JSON.parse(text);
    } catch (error) {
      return errorFrame(id, `file transport: ${path} is not JSON: ${(error as Error).message}`);
    }
    if (typeof inner !== "object" || inner === null || Array.isArray(inner)) {
      return errorFrame(id, `file transport: ${path} does not hold a JSON-RPC response object`);
    }
    const response = inner as Record<string, unknown>;
    if (!("result" in response) && !("error" in response)) {
      return errorFrame(id, `file transport: the response in ${path} has neither result nor error`);
    }
    if (response.id === id && response.jsonrpc === "2.0") {
      // Raw newlines can only be whitespace between tokens in valid JSON: flattening them
      // keeps the frame on one line without serializing a large response again.
      return text.replace(/[\r\n]+/g, " ");
    }
    if (response.id !== undefined && response.id !== id) {
      this.options.log.warn(
        `file transport: ${path} holds the response for id ${JSON.stringify(response.id)}, pointer says ${JSON.stringify(id)}; using the pointer's`,
      );
    }
    return JSON.stringify({ ...response, jsonrpc: "2.0", id });
  }
}

/** The line as a JSON-RPC frame object, or undefined when it is something else. */
function parseFrame(text: string): Record<string, unknown> | undefined {
  if (!/^\s*\{/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const frame = value as Record<string, unknown>;
  return "jsonrpc" in frame || "method" in frame || "id" in frame ? frame : undefined;
}

function errorFrame(id: RequestId, message: string): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code: JsonRpcErrorCode.INTERNAL_ERROR, message } });
}
