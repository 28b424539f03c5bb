import { HOST_KILL_GRACE_MS } from "@executa/core";
import type { ExitInfo } from "../errors/host-error.js";
import type { PluginLink } from "./plugin-link.js";

/**
 * How to ask a plugin to stop. The spec names two requests that mean the same: closing
 * stdin (EOF) and SIGTERM; `"both"` sends both at once.
 */
export type StopVia = "eof" | "sigterm" | "both";

export interface StopOptions {
  /** Default `"both"`. */
  via?: StopVia;
  /** How long to wait for a clean exit before SIGKILL. Default 5 s (the spec's). */
  graceMs?: number;
}

/** How a stop ended. */
export interface StopResult extends ExitInfo {
  /** True when the plugin outlived the grace and was killed with SIGKILL. */
  forced: boolean;
  /** From the stop request to the exit. */
  elapsedMs: number;
}

/**
 * Stops a plugin the spec's way: EOF and/or SIGTERM, up to `graceMs` for it to exit, then
 * SIGKILL. Resolves once it has exited.
 */
export async function stopChild(
  child: Pick<PluginLink, "endInput" | "kill">,
  exited: Promise<ExitInfo>,
  isRunning: () => boolean,
  options: StopOptions = {},
): Promise<StopResult> {
  const started = performance.now();
  const via = options.via ?? "both";
  const graceMs = options.graceMs ?? HOST_KILL_GRACE_MS;
  if (!isRunning()) return { ...(await exited), forced: false, elapsedMs: 0 };
  if (via !== "sigterm") child.endInput();
  if (via !== "eof") child.kill("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), graceMs);
  });
  const first = await Promise.race([exited, graceOver]);
  clearTimeout(timer);
  let forced = false;
  if (first === "timeout" && isRunning()) {
    forced = true;
    child.kill("SIGKILL");
  }
  const exit = await exited;
  return { ...exit, forced, elapsedMs: performance.now() - started };
}
