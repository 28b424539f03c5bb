import { writeSync } from "node:fs";
import { createPluginServer, type PluginServer, type ServeOptions } from "@executa/core";
import { type BuildPluginOptions, buildPlugin, type PluginClass } from "./build-plugin.js";
import { PluginDefinitionError } from "./errors/definition-error.js";

/** Options of {@link serve}: core's serve options (streams, concurrency, …) plus the instance factory. */
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
 * default), the error is written to stderr and the process exits with code 1 before
 * reading any request. On other streams the error is thrown.
 */
export function serve<T extends object>(
  target: PluginClass<T>,
  options: ServeClassOptions<T> = {},
): PluginServer {
  const { factory, ...serveOptions } = options;
  const ownsProcess = serveOptions.ownProcess ?? serveOptions.output === undefined;
  let definition: ReturnType<typeof buildPlugin>;
  try {
    definition = buildPlugin(target, factory ? { factory } : {});
  } catch (error) {
    if (!ownsProcess) throw error;
    reportStartupError(error);
    process.exit(1);
  }
  return createPluginServer(definition, serveOptions);
}

/** Writes a startup error to stderr synchronously (stdout carries protocol frames only). */
function reportStartupError(error: unknown): void {
  const text =
    error instanceof PluginDefinitionError
      ? `executa: the plugin cannot start: ${error.message}\n`
      : `executa: the plugin cannot start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`;
  try {
    writeSync(2, text);
  } catch {
    // stderr is gone; the exit code still tells.
  }
}
