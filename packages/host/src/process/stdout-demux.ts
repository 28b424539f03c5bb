import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import {
  classifyFrame,
  type FrameClass,
  type FrameSink,
  JsonRpcErrorCode,
  type LineEvent,
  type Logger,
  type RequestId,
  type Transport,
  type TransportReceiver,
} from "@executa/core";
import { previewText } from "@executa/core/internal";
import { fileTransportRefused } from "../errors/call-failures.js";
import { isHostError } from "../errors/host-error.js";
import { DEFAULT_MAX_FILE_TRANSPORT_BYTES, takeTransportFile } from "./file-transport-reader.js";

export interface StdoutDemuxOptions {
  /** Longest stdout line accepted (the spec's 16 MiB): the limit the plugin's transport reads with. */
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
 * The host's side of the plugin's transport. It reads the plugin's stdout lines and
 * classifies each once, because the peer must only see frames it understands:
 *
 * - lines that are not JSON-RPC at all (debug prints, JSON logs, arrays: core's
 *   `classifyFrame` finds no JSON-RPC member) go to `onDebugLine` instead of being
 *   answered with a parse error (spec: "tolerated (debug-logged) but never interpreted
 *   as results"); broken frames go on to the peer, which answers or drops them;
 * - `{"id", "__file_transport": path}` pointers are replaced by the response inside the
 *   file, which is then deleted; a file that is refused (see `takeTransportFile`)
 *   becomes a -32603 error response for that id, so the caller learns why at once, with
 *   `data.refusal` set to {@link StdoutDemux.refusalTag}; the file stays;
 * - responses with a null or missing id go to `onOrphanResponse`;
 * - lines over the frame limit are dropped with an error log.
 *
 * Frames reach the peer, already classified, in the order the plugin wrote them.
 */
export class StdoutDemux implements Transport {
  /** Marks the error responses this demux made for refused pointers (`error.data.refusal`). */
  readonly refusalTag = randomUUID();
  private receiver: TransportReceiver | undefined;
  private queued = 0;
  private tail: Promise<void> = Promise.resolve();

  /** @param plugin - The plugin's own transport: its stdout lines, its stdin. */
  constructor(
    private readonly plugin: Transport,
    private readonly options: StdoutDemuxOptions,
  ) {}

  get output(): FrameSink {
    return this.plugin.output;
  }

  open(receiver: TransportReceiver): void {
    this.receiver = receiver;
    this.plugin.open({
      line: (event) => this.onLineEvent(event),
      frame: (frame, text) => this.onLineSafely(text, frame),
      end: () => void this.tail.then(() => receiver.end()),
    });
  }

  pause(): void {
    this.plugin.pause();
  }

  resume(): void {
    this.plugin.resume();
  }

  close(): void {
    this.plugin.close();
  }

  private onLineEvent(event: LineEvent): void {
    if (event.kind === "line") this.onLineSafely(event.text);
    else if (event.kind === "oversized") {
      this.options.log.error(
        `plugin wrote a ${event.bytes} byte stdout line, above the ${this.options.maxFrameBytes} byte frame limit; dropped (use file transport for large results)`,
      );
    } else {
      this.options.onDebugLine(`<${event.bytes} bytes of invalid UTF-8>`);
    }
  }

  /** One line that breaks its handling (e.g. a throwing listener) is dropped alone. */
  private onLineSafely(text: string, frame = classifyFrame(text)): void {
    try {
      this.onLine(frame, text);
    } catch (error) {
      this.options.log.error(
        `dropped a stdout line that could not be handled (${(error as Error)?.message ?? String(error)}): ${previewText(text)}`,
      );
    }
  }

  private onLine(frame: FrameClass, text: string): void {
    if (frame.kind === "not-a-frame" && frame.attempted === undefined) {
      this.options.onDebugLine(text);
    } else if (frame.kind === "response" && frame.id === null) {
      this.options.onOrphanResponse?.(frame.frame);
    } else if (frame.kind === "response" && frame.outcome === "file-transport") {
      const { id, path } = frame as { id: RequestId; path: string };
      this.enqueue(() => this.resolveFileTransport(id, path));
    } else if (this.queued === 0) {
      // Broken frames go on too: the peer answers or drops them as the protocol says.
      this.receiver!.frame(frame, text);
    } else {
      this.enqueue(async () => text, frame);
    }
  }

  /** Hands a frame over after those queued before it; `frame` is its class when known already. */
  private enqueue(produce: () => Promise<string>, frame?: FrameClass): void {
    this.queued += 1;
    this.tail = this.tail.then(async () => {
      try {
        const text = await produce();
        this.receiver!.frame(frame ?? classifyFrame(text), text);
      } finally {
        this.queued -= 1;
      }
    });
  }

  private async resolveFileTransport(id: RequestId, path: string): Promise<string> {
    try {
      return await takeTransportFile(path, {
        maxBytes: this.options.maxFileTransportBytes ?? DEFAULT_MAX_FILE_TRANSPORT_BYTES,
        roots: this.options.transportRoots ?? [tmpdir()],
        expectedId: id,
      });
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
