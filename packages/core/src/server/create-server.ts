import type { InputStream, OutputStream } from "../framing/byte-streams.js";
import { createLogger, type Logger } from "../log/logger.js";
import { rateLimitedLogger } from "../log/rate-limited-logger.js";
import { type McpHttpAddress, mcpHttpFromArgv } from "../mcp/http/http-address.js";
import {
  type McpHttpEnvSettings,
  McpHttpSettingError,
  mcpHttpSettingsFromEnv,
} from "../mcp/http/http-env.js";
import { type ProtocolSetting, protocolFromEnvironment } from "../mcp/protocol-choice.js";
import { releaseTransportDir } from "../rpc/file-transport.js";
import { streamTransport } from "../transport/stream-transport.js";
import type { Transport } from "../transport/transport.js";
import { bunStdio } from "./bun-stdio.js";
import { commandLineAnswer } from "./command-line.js";
import type { PluginDefinition, ServerOptions } from "./definition.js";
import { PluginServer } from "./plugin-server.js";
import { guardStdout } from "./stdout-guard.js";
import { EARLY_SIGNALS_KEY, STOP_SIGNALS } from "./stop-signals.js";

// Creating a server and giving it the process: the streams (stdio, Bun's own stdio, or
// HTTP with --mcp-http), the stdout guard, the stop signals and the exit.

/** Where the bundle banner records signals that came before a server took the process over. */
const EARLY_SIGNALS = Symbol.for(EARLY_SIGNALS_KEY);

/** Where and how a server runs. */
export interface ServeOptions extends ServerOptions {
  /**
   * Where frames come from and go to, e.g. one end of a `memoryTransportPair()` to serve
   * a host in this process. Takes the place of `input` and `output`.
   */
  transport?: Transport;
  /** Input stream; stdin by default. */
  input?: InputStream;
  /** Output stream; stdout by default (then guarded so only frames reach it). */
  output?: OutputStream;
  /**
   * Exit the process once stopped, and stop gracefully on SIGTERM / SIGINT / SIGHUP (any
   * number of them; also ones the bundle banner recorded early). Default: true when
   * serving on stdio, false on other streams.
   */
  ownProcess?: boolean;
  /** Logger for the server's own messages; stderr by default. */
  log?: Logger;
  /**
   * The protocol to speak: "executa", "mcp", or "auto" (the client's first frame decides).
   * Default on stdio: "mcp" with `--mcp` or `EXECUTA_PROTOCOL=mcp`, "executa" with
   * `EXECUTA_PROTOCOL=executa`, else "auto"; "auto" on other streams.
   */
  protocol?: ProtocolSetting;
}

/**
 * Creates a server on the given streams (in-memory streams in tests, stdio by default)
 * and starts reading. On stdio the server owns the process: stdout is guarded, SIGTERM,
 * SIGINT and SIGHUP stop it gracefully (repeats are ignored), a tool's stray exception is
 * logged instead of killing it, and the process exits 0 once stopped. Asked for `--help`
 * or `--version` on stdio, it prints the plugin's usage or version and exits 0 instead.
 */
export function createPluginServer(definition: PluginDefinition, options: ServeOptions = {}): PluginServer {
  const onStdio = options.output === undefined && options.transport === undefined;
  if (onStdio && options.input === undefined) answerCommandLineAndExit(definition);
  const overHttp = onStdio && options.input === undefined ? httpAddressOrExit(definition) : undefined;
  if (overHttp) return serveOverHttp(definition, overHttp, options);
  const ownProcess = options.ownProcess ?? onStdio;
  const {
    transport,
    input: _input,
    output: _output,
    log,
    ownProcess: _own,
    protocol = onStdio ? protocolFromEnvironment() : "auto",
    ...serverOptions
  } = options;
  const logger = log ?? createLogger(definition.manifest.name);
  const server = new PluginServer(definition, {
    transport: transport ?? overStreams(definition, options, onStdio),
    log: logger,
    options: serverOptions,
    protocol,
  });
  if (ownProcess) ownTheProcess(server, logger);
  return server;
}

/**
 * The transport over the given streams, else over the process's stdio: Bun's own reader
 * and writer under Bun, else stdin and a guarded stdout.
 */
function overStreams(definition: PluginDefinition, options: ServeOptions, onStdio: boolean): Transport {
  const bun = onStdio && options.input === undefined ? bunStdio() : undefined;
  const guard = onStdio && !bun ? guardStdout() : undefined;
  return streamTransport(
    options.input ?? bun?.input ?? process.stdin,
    { stream: options.output ?? bun?.output ?? process.stdout, write: guard?.realWrite },
    { maxLineBytes: options.maxFrameBytes ?? definition.options?.maxFrameBytes },
  );
}

/** Serves a plugin definition on stdin/stdout until EOF, a signal or `shutdown`. */
export function servePlugin(definition: PluginDefinition, options: ServerOptions = {}): PluginServer {
  return createPluginServer(definition, options);
}

/** `--help` or `--version` among the arguments: answered on stdout, then the process exits 0. */
function answerCommandLineAndExit(definition: PluginDefinition): void {
  const answer = commandLineAnswer(definition.manifest);
  if (answer === undefined) return;
  process.getBuiltinModule("node:fs").writeSync(1, answer);
  process.exit(0);
}

/**
 * The `--mcp-http` address among the arguments and its settings from the environment; a
 * malformed address or setting ends the process with code 2.
 */
function httpAddressOrExit(
  definition: PluginDefinition,
): { address: McpHttpAddress; settings: McpHttpEnvSettings } | undefined {
  try {
    const address = mcpHttpFromArgv();
    return address && { address, settings: mcpHttpSettingsFromEnv() };
  } catch (error) {
    createLogger(definition.manifest.name).error((error as Error).message);
    process.exit(2);
  }
}

/**
 * `--mcp-http [HOST:]PORT`: MCP over Streamable HTTP instead of stdio. The HTTP stack is
 * imported only when serving so (a stdio plugin never evaluates it). The server owns the
 * process: a stop signal lets in-flight calls finish and their answers be written first.
 */
function serveOverHttp(
  definition: PluginDefinition,
  { address, settings }: { address: McpHttpAddress; settings: McpHttpEnvSettings },
  options: ServeOptions,
): PluginServer {
  const {
    log,
    ownProcess: _own,
    protocol: _protocol,
    transport: _transport,
    input: _input,
    output: _output,
    ...serverOptions
  } = options;
  // Anyone who reaches the port can make the server log (a session, an aborted request):
  // the budget keeps a flood from filling the disk or drowning the lines that matter.
  const logger = rateLimitedLogger(log ?? createLogger(definition.manifest.name));
  const server = new PluginServer(definition, {
    transport: IDLE_TRANSPORT,
    log: logger,
    options: serverOptions,
    protocol: "auto",
  });
  // Imported here, not at the top: a plugin served over stdio never evaluates the HTTP
  // stack (sessions, rate limits, the resource server, node:http).
  const listening = import("../mcp/http/http-server.js")
    .then(({ serveMcpHttp }) =>
      serveMcpHttp(server, {
        address,
        log: logger,
        ...settings,
        ...(definition.toolScopes && { toolScopes: definition.toolScopes }),
      }),
    )
    .catch((error: Error) => {
      logger.error(`cannot serve MCP over HTTP at ${address.host}:${address.port}: ${error.message}`);
      process.exit(error instanceof McpHttpSettingError ? 2 : 1);
    });
  ownTheProcess(server, logger, () => listening.then((http) => http.close()));
  return server;
}

/**
 * The transport of a server whose clients come over HTTP: never a frame, never an end,
 * and nothing is written to it.
 */
const IDLE_TRANSPORT: Transport = {
  output: {
    stream: {
      write: (_data, callback) => {
        callback();
        return true;
      },
      on: noop,
      once: noop,
    },
  },
  open: noop,
  pause: noop,
  resume: noop,
  close: noop,
};

function noop(): void {}

function ownTheProcess(server: PluginServer, log: Logger, beforeExit?: () => Promise<void>): void {
  // Listeners stay installed: a second signal must not fall back to the default action
  // (death) while the first one's graceful stop is still draining.
  const onSignal = (signal: NodeJS.Signals) => {
    if (server.stopping) log.info(`${signal} received; already stopping`);
    else log.info(`${signal} received; stopping`);
    void server.stop("signal");
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  takeOverEarlySignals(server, log);
  process.on("uncaughtException", (error) => {
    log.error(`uncaught exception (still serving): ${error.stack ?? error.message}`);
  });
  process.on("unhandledRejection", (reason) => {
    log.error(
      `unhandled rejection (still serving): ${reason instanceof Error ? reason.stack : String(reason)}`,
    );
  });
  // A process that ends another way must not leave the file-transport directory behind.
  process.once("exit", releaseTransportDir);
  void server.done.then(beforeExit).then(() => process.exit(0));
}

/** What the bundle banner leaves on `globalThis` (see {@link EARLY_SIGNALS}). */
interface EarlySignals {
  received: string[];
  dispose(): void;
}

/**
 * Takes the process over from the bundle banner's listeners, which record signals that
 * arrive before any module ran: removes them (ours are installed by now) and, when a
 * signal already came, begins the graceful stop at once.
 */
function takeOverEarlySignals(server: PluginServer, log: Logger): void {
  const early = (globalThis as Record<symbol, unknown>)[EARLY_SIGNALS] as Partial<EarlySignals> | undefined;
  if (typeof early !== "object" || early === null) return;
  try {
    early.dispose?.();
  } catch (error) {
    log.warn(`could not remove the early signal listeners: ${(error as Error).message}`);
  }
  const received = Array.isArray(early.received) ? early.received : [];
  if (received.length > 0) {
    log.info(`${received.join(", ")} received before the server started; stopping`);
    void server.stop("signal");
  }
}
