import { PassThrough } from "node:stream";
import {
  createLogger,
  createPluginServer,
  type MemoryTransportEnd,
  memoryTransportPair,
  type PluginDefinition,
  type PluginServer,
  type ServerOptions,
} from "@executa/core";
import { type ExitInfo, type LineStream, type PluginLink, pipeLines } from "@executa/host";

/** Options of {@link InProcessLink}. */
export interface InProcessLinkOptions {
  /** Options of the plugin server (concurrency, shutdown grace, file transport...). */
  server?: ServerOptions;
  /** Longest line the host side reads as a frame. Default 16 MiB. */
  maxLineBytes?: number;
}

/**
 * A plugin server running in this process, linked to the host over an in-memory
 * transport pair: frames cross it as over stdio, with a pipe's framing and
 * backpressure, and what the server logs is the plugin's stderr.
 *
 * Stopping maps onto the server's own stop paths: ending the input is EOF, `SIGTERM` /
 * `SIGINT` stop it as a signal would (in-flight invokes get the grace period), and
 * `SIGKILL` cuts the transport at once and reports a kill — handlers still running in
 * this process cannot be interrupted, but nothing they produce reaches the host any more.
 */
export class InProcessLink implements PluginLink {
  readonly transport: MemoryTransportEnd;
  /** There is no OS process. */
  readonly pid = undefined;
  readonly exited: Promise<ExitInfo>;
  readonly closed: Promise<ExitInfo>;
  private readonly server: PluginServer;
  private readonly pluginEnd: MemoryTransportEnd;
  /** What the server logs, held until a host takes it, then split as a child's stderr is. */
  private readonly stderr = new PassThrough();
  private exit: ExitInfo | undefined;
  private markExited!: (info: ExitInfo) => void;

  constructor(definition: PluginDefinition, options: InProcessLinkOptions = {}) {
    const serverMax = options.server?.maxFrameBytes ?? definition.options?.maxFrameBytes;
    [this.transport, this.pluginEnd] = memoryTransportPair(
      { maxLineBytes: options.maxLineBytes },
      { maxLineBytes: serverMax },
    );
    this.exited = new Promise((resolve) => {
      this.markExited = resolve;
    });
    this.closed = this.exited;
    const log = createLogger(definition.manifest.name, { write: (text) => this.writeStderr(text) });
    this.server = createPluginServer(definition, {
      ...options.server,
      transport: this.pluginEnd,
      log,
      ownProcess: false,
    });
    void this.server.done.then(() => {
      this.pluginEnd.endOutput();
      this.endStderr();
      setImmediate(() => this.finish({ code: 0, signal: null }));
    });
  }

  pipeStderr(target: LineStream): void {
    pipeLines(this.stderr, target);
  }

  endInput(): void {
    this.transport.endOutput();
  }

  kill(signal: NodeJS.Signals): void {
    if (this.exit) return;
    if (signal === "SIGKILL") {
      this.transport.cut();
      this.endStderr();
      this.finish({ code: null, signal: "SIGKILL" });
    } else {
      void this.server.stop("signal");
    }
  }

  writeRaw(data: string | Uint8Array): Promise<void> {
    return this.transport.writeRaw(data);
  }

  private writeStderr(text: string): void {
    if (!this.stderr.writableEnded) this.stderr.write(text);
  }

  private endStderr(): void {
    if (!this.stderr.writableEnded) this.stderr.end();
  }

  private finish(info: ExitInfo): void {
    if (this.exit) return;
    this.exit = info;
    this.markExited(info);
  }
}
