import type { ChildProcess } from "node:child_process";
import { streamTransport, type Transport } from "@executa/core";
import { writeRaw } from "@executa/core/internal";
import type { ExitInfo } from "../errors/host-error.js";
import { HostError } from "../errors/host-error.js";
import { type LineStream, pipeLines } from "./line-stream.js";

/**
 * A running plugin as {@link PluginProcess} drives it, wherever it runs: a child process
 * (what {@link spawnPlugin} makes), or a plugin server in this process (the testing
 * package's `runInProcess`).
 */
export interface PluginLink {
  /** The plugin's stdout lines in, frames to its stdin out. */
  readonly transport: Transport;
  /** The OS process id, when there is a process. */
  readonly pid?: number;
  /** Resolves once the plugin has exited. */
  readonly exited: Promise<ExitInfo>;
  /** Resolves once the plugin has exited and its stdout and stderr are closed. */
  readonly closed: Promise<ExitInfo>;
  /** Sends each line the plugin writes to stderr to `target`, and ends it with the stream. */
  pipeStderr(target: LineStream): void;
  /** Closes the plugin's stdin: EOF, the spec's first way to ask for a stop. */
  endInput(): void;
  /** Delivers a signal (SIGTERM asks for a stop, SIGKILL ends the plugin at once). */
  kill(signal: NodeJS.Signals): void;
  /** Writes bytes to the plugin's stdin exactly as given, bypassing framing. */
  writeRaw(data: string | Uint8Array): Promise<void>;
}

/** Options of {@link childProcessLink}. */
export interface ChildProcessLinkOptions {
  /** Longest stdout line read as a frame; a longer one is dropped. */
  maxLineBytes: number;
  /** Told of a process error after the process started (before, `spawnPlugin` reports it). */
  onError: (error: Error) => void;
}

/** A child process spawned with piped stdio, as a {@link PluginLink}. */
export function childProcessLink(child: ChildProcess, options: ChildProcessLinkOptions): PluginLink {
  const { stdin, stdout, stderr } = child;
  if (!stdin || !stdout || !stderr) {
    throw new HostError(
      "CHILD_WITHOUT_PIPES",
      "PluginProcess needs a child spawned with stdio ['pipe', 'pipe', 'pipe']",
    );
  }
  child.on("error", (error) => {
    if (child.pid !== undefined) options.onError(error);
  });
  return {
    transport: streamTransport(stdout, { stream: stdin }, { maxLineBytes: options.maxLineBytes }),
    get pid() {
      return child.pid;
    },
    exited: new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal }))),
    closed: new Promise((resolve) => child.once("close", (code, signal) => resolve({ code, signal }))),
    pipeStderr: (target) => pipeLines(stderr, target),
    endInput: () => stdin.end(),
    kill: (signal) => void child.kill(signal),
    writeRaw: (data) => writeRaw(stdin, data),
  };
}
