import type { CheckContext, CheckGroup } from "../check-context.js";
import { formatDuration, formatExit, stderrHint } from "../probe/outcome-text.js";
import { type CheckResult, CheckTimer } from "../report.js";

const GROUP = "shutdown";

/**
 * The two ways a host asks a plugin to stop — closing stdin, and SIGTERM — each on a
 * fresh process after the handshake: it must exit with code 0 within 5 s.
 */
export const shutdownGroup: CheckGroup = {
  id: GROUP,
  checks: [
    { id: "eof-exit", title: "stdin EOF → exit 0 within 5 s" },
    { id: "sigterm-exit", title: "SIGTERM → exit 0 within 5 s" },
  ],
  async run(context) {
    return [await stopOnce(context, "eof"), await stopOnce(context, "sigterm")];
  },
};

async function stopOnce(context: CheckContext, via: "eof" | "sigterm"): Promise<CheckResult> {
  const label = via === "eof" ? "stdin EOF" : "SIGTERM";
  const probe = await context.session({ initialize: true });
  // A host stops a plugin it has described, not one still starting.
  await probe.request("describe", undefined, context.options.describeTimeoutMs);
  const timer = new CheckTimer(GROUP, `${via}-exit`, `${label} → exit 0 within 5 s`);
  if (!probe.running) {
    return timer.fail(`the plugin had already exited (${formatExit(probe.exit)}) before ${label}`);
  }
  const started = performance.now();
  if (via === "eof") probe.closeStdin();
  else probe.signal("SIGTERM");
  const timeoutMs = context.options.exitTimeoutMs;
  const exit = await probe.waitForExit(timeoutMs);
  const took = formatDuration(performance.now() - started);
  if (!exit) {
    return timer.fail(
      `still running ${formatDuration(timeoutMs)} after ${label} (a host would SIGKILL it now)`,
    );
  }
  if (exit.code === 0) return timer.pass(`exited 0 in ${took}`);
  if (exit.signal === "SIGTERM" && via === "sigterm") {
    return timer.warn(
      `died from SIGTERM's default action in ${took} instead of exiting 0: handle SIGTERM, flush and exit cleanly`,
    );
  }
  return timer.fail(`exited with ${formatExit(exit)} after ${label}; expected code 0${stderrHint(probe)}`);
}
