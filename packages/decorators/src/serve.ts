import { createPluginServer, type PluginClass, type PluginServer, type ServeOptions } from "@executa/core";
import { type BuildPluginOptions, buildPlugin } from "./build-plugin.js";
import { DefinitionError } from "./errors/definition-error.js";
import { claimStdio } from "./serve-once.js";

/**
 * Options of {@link serve}: core's serve options (streams, concurrency, `mcp`, …) plus the
 * instance factory. `{ mcp: { fallback: mcpLocalFallback() } }` (from `@executa/host/local`)
 * answers storage and files from a local store when the plugin is served over MCP.
 */
export interface ServeClassOptions<T extends object = object> extends ServeOptions {
  /** Creates the one plugin instance; default `new Class()`. */
  factory?: BuildPluginOptions<T>["factory"];
}

/**
 * Serves a decorated plugin class: builds it (see `buildPlugin`) and starts core's server,
 * on stdin/stdout unless `input` / `output` are given. Server options given here override
 * those of `@Plugin({ server })`.
 *
 * When the class cannot be a plugin and the server would own the process (stdio, the
 * default), the error is written to stderr as `executa: the plugin cannot start [CODE]: …`
 * (the {@link DefinitionError} code, which tools such as the bundler match on) and the
 * process exits with code 1 before reading any request. On other streams the error is thrown.
 * One `serve()` per process serves on stdio: a second one is such an error (`SERVED_TWICE`).
 */
export function serve<T extends object>(
  target: PluginClass<T>,
  options: ServeClassOptions<T> = {},
): PluginServer {
  const { factory, ...serveOptions } = options;
  const ownsProcess = serveOptions.ownProcess ?? serveOptions.output === undefined;
  const onStdio = serveOptions.output === undefined && serveOptions.transport === undefined;
  let definition: ReturnType<typeof buildPlugin>;
  try {
    definition = buildPlugin(target, factory ? { factory } : {});
    if (onStdio) claimStdio(target.name, definition.manifest.name);
  } catch (error) {
    if (!ownsProcess) throw error;
    reportStartupError(error);
    process.exit(1);
  }
  return createPluginServer(definition, serveOptions);
}

/** Writes a startup error to stderr synchronously (stdout carries protocol frames only). */
function reportStartupError(error: unknown): void {
  try {
    process.getBuiltinModule("node:fs").writeSync(2, startupErrorText(error));
  } catch {
    // stderr is gone; the exit code still tells.
  }
}

/** `executa: the plugin cannot start [CODE]: message`; an unexpected error keeps its stack. */
function startupErrorText(error: unknown): string {
  if (error instanceof DefinitionError)
    return `executa: the plugin cannot start [${error.code}]: ${error.message}\n`;
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return `executa: the plugin cannot start: ${detail}\n`;
}
