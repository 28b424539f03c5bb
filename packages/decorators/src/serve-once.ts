import { DefinitionError } from "./errors/definition-error.js";

/**
 * Where the process records the class `serve()` serves on stdin and stdout: a registry
 * symbol, so two copies of this package in one process (its ESM and CommonJS builds) see
 * the same record.
 */
const SERVED_ON_STDIO = Symbol.for("executa.decorators.servedOnStdio");

/**
 * Records that `className` (plugin `pluginName`) is served on the process's stdio, or
 * throws `SERVED_TWICE` when a class already is: one server per process reads stdin and
 * writes stdout.
 */
export function claimStdio(className: string, pluginName: string): void {
  const record = globalThis as Record<symbol, unknown>;
  const first = record[SERVED_ON_STDIO];
  if (typeof first === "string") {
    throw new DefinitionError(
      "SERVED_TWICE",
      className,
      "",
      `serve() was called a second time in this process, while ${first} is already served on its ` +
        "stdin and stdout: both servers would read every request, and this one's answers could never reach the host",
      "call serve() once per process, in the entry file: put the tools of both classes in one @Plugin " +
        "class, or give the other class its own entry file and binary",
    );
  }
  record[SERVED_ON_STDIO] = `${className} (plugin "${pluginName}")`;
}
