import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { PassThrough, type Readable } from "node:stream";
import { classifyFrame, JsonRpcErrorCode, type Logger, type RequestId } from "@executa/core";
import { LineReader, previewText } from "@executa/core/internal";
import { fileTransportRefused } from "../errors/call-failures.js";
import { isHostError } from "../errors/host-error.js";
import { DEFAULT_MAX_FILE_TRANSPORT_BYTES, takeTransportFile } from "./file-transport-reader.js";

export interface StdoutDemuxOptions {
  /** Longest stdout line accepted (the spec's 16 MiB). */
  maxFrameBytes: number;
  /** Largest file-transport file read. */
  maxFileTransportBytes?: number;
  /**
   * Temp directories the plugin's private transport directory may sit in (see
   * `takeTransportFile`). Default: the host's `os.tmpdir()`.
   */
  transportRoots?: readonly string[];
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
 * - lines that are not JSON-RPC at all (debug prints, JSON logs, arrays: core's
 *   `classifyFrame` finds no JSON-RPC member) go to `onDebugLine` instead of being
 *   answered with a parse error (spec: "tolerated (debug-logged) but never interpreted
 *   as results"); broken frames go on to the peer, which answers or drops them;
 * - `{"id", "__file_transport": path}` pointers are replaced by the response inside the
 *   file, which is then deleted; a file that is refused (see `takeTransportFile`)
 *   becomes a -32603 error response for that id, so the caller learns why at once, with
 *   `data.refusal` set to {@link refusalTag}; the file stays;
 * - responses with a null or missing id go to `onOrphanResponse`;
 * - lines over the frame limit are dropped with an error log.
 *
 * Frames reach {@link frames} in the order the plugin wrote them.
 */
export class StdoutDemux {
  /** The protocol frames, one per line: the input for the peer. */
  readonly frames = new PassThrough();
  /** Marks the error responses this demux made for refused pointers (`error.data.refusal`). */
  readonly refusalTag = randomUUID();
  private readonly reader: LineReader;
  private queued = 0;
  private tail: Promise<void> = Promise.resolve();

  constructor(
    source: Readable,
    private readonly options: StdoutDemuxOptions,
  ) {
    this.reader = new LineReader(
      (event) => {
        if (event.kind === "line") this.onLineSafely(event.text);
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

  /** One line that breaks its handling (e.g. a throwing listener) is dropped alone. */
  private onLineSafely(text: string): void {
    try {
      this.onLine(text);
    } catch (error) {
      this.options.log.error(
        `dropped a stdout line that could not be handled (${(error as Error)?.message ?? String(error)}): ${previewText(text)}`,
      );
    }
  }

  private onLine(text: string): void {
    const frame = classifyFrame(text);
    if (frame.kind === "not-a-frame" && frame.attempted === undefined) {
      this.options.onDebugLine(text);
    } else if (frame.kind === "response" && frame.id === null) {
      this.options.onOrphanResponse?.(frame.frame);
    } else if (frame.kind === "response" && frame.outcome === "file-transport") {
      const { id, path } = frame as { id: RequestId; path: string };
      this.enqueue(() => this.resolveFileTransport(id, path));
    } else if (this.queued === 0) {
      // Broken frames go on too: the peer answers or drops them as the protocol says.
      this.forward(text);
    } else {
      this.enqueue(async () => text);
    }
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
    try {
      const text = await takeTransportFile(path, {
        maxBytes: this.options.maxFileTransportBytes ?? DEFAULT_MAX_FILE_TRANSPORT_BYTES,
        roots: this.options.transportRoots ?? [tmpdir()],
        expectedId: id,
      });
      // Raw newlines can only be whitespace between tokens in valid JSON: flattening them
      // keeps the frame on one line without serializing a large response again.
      return text.replace(/[\r\n]+/g, " ");
    } catch (error) {
      const refused = isHostError(error, "FILE_TRANSPORT_REFUSED")
        ? error
        : fileTransportRefused(path, "unreadable", `cannot read it (${errorCode(error)})`);
      this.options.log.warn(
        `plugin answered id ${JSON.stringify(id)} with a pointer the host refused: ${refused.message}`,
      );
      return JSON.stringify({
        jsonrpc: "2.0",
        id,
        error: {
          code: JsonRpcErrorCode.INTERNAL_ERROR,
          message: refused.message,
          data: { file_transport: path, reason: refused.details.refusal, refusal: this.refusalTag },
        },
      });
    }
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException)?.code ?? "error";
}
