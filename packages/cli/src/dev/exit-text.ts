import { type ExitInfo, isHostError } from "@executa/host";

/** `exited with code 1` or `was killed by SIGKILL`. */
export function exitText(exit: ExitInfo): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

/** How the plugin ended, when `error` says it exited (`PLUGIN_EXITED`). */
export function exitOf(error: unknown): ExitInfo | undefined {
  if (!isHostError(error, "PLUGIN_EXITED")) return undefined;
  return (error.details as { exit?: ExitInfo } | undefined)?.exit;
}
