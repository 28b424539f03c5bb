import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { InvokeResult, Manifest, ProtocolVersion } from "@executa/core";
import { type ExitInfo, type Negotiated, type PluginProcess, spawnPlugin } from "@executa/host";
import type { LocalProviders, SamplingConfig } from "@executa/host/local";
import { startupFailure } from "./startup-failure.js";
import type { DevTarget } from "./target.js";

/** How many stderr lines of a start are held back (a crash is read from them). */
const STARTUP_LINES_KEPT = 500;

/** Options of {@link DevSession.open}. */
export interface DevSessionOptions {
  target: DevTarget;
  /** The plugin's working directory (and `EXECUTA_HOME`). */
  cwd: string;
  /** The dev profile directory for the local providers (see `devDataDir`). */
  dataDir: string;
  /** Into `context.credentials` of every invoke. Mutable: the REPL's `.credential` sets more. */
  credentials?: Record<string, string>;
  /** The version `initialize` offers. Default "2.0". */
  protocolVersion?: ProtocolVersion;
  /** How `sampling/createMessage` is answered; default from the environment (echo when unset). */
  sampling?: SamplingConfig;
  /** A mock fixture file (JSONL) whose lines answer reverse calls before the local providers. */
  fixtures?: string;
  /** The local storage's largest value in bytes (default 1 MiB); a larger one answers -32025. */
  maxValueBytes?: number;
  /** Extra environment for the plugin. */
  env?: Record<string, string | undefined>;
  /**
   * Each stderr line of the plugin: as it comes once the plugin has started; those of a
   * start are held until it succeeds (a failed start is told once, by the error it throws).
   */
  onStderr?: (line: string) => void;
  /** Each stdout line that is not a protocol frame (the plugin is misbehaving). */
  onStdoutNoise?: (line: string) => void;
  /** The plugin exited without being asked to, after it had started. */
  onUnexpectedExit?: (exit: ExitInfo) => void;
}

/** What one invoke came to. */
export type InvokeOutcome =
  | { ok: true; result: InvokeResult; elapsedMs: number }
  | { ok: false; error: unknown; elapsedMs: number };

/**
 * A plugin running under the local host for development: local providers (SQLite
 * storage, loopback files and uploads, echo / script / relay sampling) in a per-profile
 * data directory, the handshake done, and restarts (for `--watch`) that keep the data.
 */
export class DevSession {
  readonly credentials: Record<string, string>;
  private current: PluginProcess | undefined;
  private lastManifest: Manifest | undefined;
  private lastNegotiated: Negotiated | undefined;
  private stopping = false;

  private constructor(
    private readonly options: DevSessionOptions,
    private readonly local: LocalProviders,
  ) {
    this.credentials = options.credentials ?? {};
  }

  /**
   * Creates the local providers and starts the plugin (`initialize` + `describe`).
   * @throws Error when the plugin cannot be started or fails the handshake (it is stopped):
   * its message says how, with the useful lines of the plugin's stderr.
   */
  static async open(options: DevSessionOptions): Promise<DevSession> {
    mkdirSync(options.dataDir, { recursive: true });
    // Loaded here, not at the top: it compiles SQLite's WebAssembly, which only `dev` needs.
    const { createLocalProviders } = await import("@executa/host/local");
    const local = createLocalProviders({
      dataDir: options.dataDir,
      sampling: options.sampling,
      fixtures: options.fixtures,
      maxValueBytes: options.maxValueBytes,
    });
    const session = new DevSession(options, local);
    try {
      await session.start();
    } catch (error) {
      await local.close();
      throw error;
    }
    return session;
  }

  /** The running plugin. */
  get plugin(): PluginProcess {
    if (!this.current) throw new Error("the plugin is not started");
    return this.current;
  }

  /** True while the plugin process runs. */
  get running(): boolean {
    return this.current?.running ?? false;
  }

  /** The manifest of the latest successful start (kept while a restart fails). */
  get manifest(): Manifest {
    if (!this.lastManifest) throw new Error("the plugin has not been described");
    return this.lastManifest;
  }

  /** The handshake outcome of the latest successful start. */
  get negotiated(): Negotiated {
    if (!this.lastNegotiated) throw new Error("the plugin has not been initialized");
    return this.lastNegotiated;
  }

  /** Stops the plugin (if running) and starts it again: a fresh process, the same data. */
  async restart(): Promise<void> {
    await this.stopPlugin();
    await this.start();
  }

  /** Invokes a tool with the session's credentials; never throws. */
  async invoke(tool: string, args: Record<string, unknown>, timeoutMs?: number): Promise<InvokeOutcome> {
    const started = performance.now();
    try {
      const result = await this.plugin.invoke(tool, args, {
        credentials: { ...this.credentials },
        timeoutMs,
      });
      return { ok: true, result, elapsedMs: performance.now() - started };
    } catch (error) {
      return { ok: false, error, elapsedMs: performance.now() - started };
    }
  }

  /** Stops the plugin the spec's way and closes the local providers. */
  async close(): Promise<void> {
    await this.stopPlugin();
    await this.local.close();
  }

  private async start(): Promise<void> {
    const plugin = await this.spawn();
    this.current = plugin;
    this.stopping = false;
    let held: string[] | undefined = [];
    plugin.stderr.onLine((line) => {
      if (!held) this.options.onStderr?.(line);
      else if (held.length < STARTUP_LINES_KEPT) held.push(line);
    });
    plugin.stdoutDebug.onLine((line) => this.options.onStdoutNoise?.(line));
    plugin.once("exit", (exit) => {
      if (!held && !this.stopping && this.current === plugin) this.options.onUnexpectedExit?.(exit);
    });
    let step: "initialize" | "describe" = "initialize";
    try {
      const negotiated = await plugin.initialize({ timeoutMs: startTimeoutMs(this.options.target) });
      step = "describe";
      this.lastManifest = await plugin.describe();
      this.lastNegotiated = negotiated;
    } catch (error) {
      this.stopping = true;
      await plugin.stop({ graceMs: 1000 }).catch(() => {});
      throw startupFailure(this.options.target, error, held, step);
    }
    const startLines = held;
    held = undefined;
    for (const line of startLines) this.options.onStderr?.(line);
  }

  private spawn(): Promise<PluginProcess> {
    const { target, cwd, dataDir } = this.options;
    const dataFolder = join(dataDir, "data");
    mkdirSync(dataFolder, { recursive: true });
    return spawnPlugin({
      command: target.command,
      args: target.args,
      cwd,
      // As an installed plugin runs: EXECUTA_HOME its folder, EXECUTA_DATA its data folder.
      env: { EXECUTA_HOME: cwd, EXECUTA_DATA: dataFolder, ...this.options.env },
      providers: this.local.providers,
      protocolVersion: this.options.protocolVersion,
      clientInfo: { name: "executa-dev", version: "0.1.0" },
      // A tool that times out in development should be seen, not have its process killed.
      onInvokeTimeout: "keep",
    });
  }

  private async stopPlugin(): Promise<void> {
    const plugin = this.current;
    if (!plugin) return;
    this.stopping = true;
    // Closing stdin, the spec's other stop request, not SIGTERM too: a plugin logs the
    // signal it receives ("SIGTERM received; stopping"), which after a verdict is noise.
    if (plugin.running) await plugin.stop({ via: "eof" });
  }
}

/**
 * How long a plugin run from TypeScript source may take to answer `initialize`: its first
 * start compiles every module (and reads the source's types), which on a loaded machine
 * can pass the spec's 5 s; that limit is for built artifacts, which `executa check` and
 * the build hold to it. Other targets get the host's default (5 s).
 */
const SOURCE_START_TIMEOUT_MS = 30_000;

function startTimeoutMs(target: DevTarget): number | undefined {
  return target.kind === "typescript" ? SOURCE_START_TIMEOUT_MS : undefined;
}
