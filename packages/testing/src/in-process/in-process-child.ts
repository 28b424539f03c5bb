import type { ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import {
  createLogger,
  createPluginServer,
  type PluginDefinition,
  type PluginServer,
  type ServerOptions,
} from "@executa/core";

/**
 * A plugin server running in this process, shaped like the part of a `ChildProcess` that
 * host's `PluginProcess` drives: `stdin` / `stdout` / `stderr` streams linked in memory
 * to core's `PluginServer`, an `exit` event, and `kill()`.
 *
 * This lets the in-process test client reuse host's `PluginProcess` unchanged (the
 * handshake with its v1 fallback, invoke stamping and timeouts, file-transport reading,
 * the reverse router and its grant checks) instead of writing a second host.
 *
 * Signals map onto the server's own stop paths: closing `stdin` is EOF, `SIGTERM` /
 * `SIGINT` stop it as a signal would (in-flight invokes get the grace period), and
 * `SIGKILL` cuts the streams at once and reports a kill — handlers still running in this
 * process cannot be interrupted, but nothing they produce reaches the host any more.
 */
export class InProcessChild extends EventEmitter {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  /** There is no OS process. */
  readonly pid = undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  private exited = false;
  private readonly server: PluginServer;

  constructor(definition: PluginDefinition, options: ServerOptions = {}) {
    super();
    const log = createLogger(definition.manifest.name, { write: (line) => this.writeStderr(line) });
    const server = createPluginServer(definition, {
      ...options,
      input: this.stdin,
      output: this.stdout,
      log,
      ownProcess: false,
    });
    this.server = server;
    void server.done.then(() => {
      this.stdout.end();
      this.stderr.end();
      setImmediate(() => this.markExited(0, null));
    });
  }

  /** This object where `PluginProcess` expects a child process (it uses only the part above). */
  asChildProcess(): ChildProcess {
    return this as unknown as ChildProcess;
  }

  /** Delivers a "signal": see the class notes for what each one does. */
  kill(signal: NodeJS.Signals | number = "SIGTERM"): boolean {
    if (this.exited) return false;
    if (signal === "SIGKILL" || signal === 9) {
      this.stdin.destroy();
      this.stdout.end();
      this.stderr.end();
      this.markExited(null, "SIGKILL");
    } else {
      void this.server.stop("signal");
    }
    return true;
  }

  private writeStderr(line: string): void {
    if (!this.stderr.writableEnded) this.stderr.write(line);
  }

  private markExited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exited) return;
    this.exited = true;
    this.exitCode = code;
    this.signalCode = signal;
    this.emit("exit", code, signal);
    this.emit("close", code, signal);
  }
}
