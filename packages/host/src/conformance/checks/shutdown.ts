import type { CheckContext, CheckGroup } from "../check-context.js";
import { formatDuration, formatExit, stderrHint } from "../probe/outcome-text.js";
import type { WireProbe } from "../probe/wire-probe.js";
import { type CheckResult, CheckTimer } from "../report.js";

const GROUP = "shutdown";
/** How long `health` requests stream in before SIGTERM, so the signal lands mid-flood. */
const FLOOD_BEFORE_SIGNAL_MS = 300;
const FLOOD_BATCH = 256;

/**
 * The two ways a host asks a plugin to stop — closing stdin, and SIGTERM — each on a
 * fresh process after the handshake: it must exit with code 0 within 5 s. SIGTERM
 * arrives while `health` requests stream in, as when a host stops a busy plugin.
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
  let flood: Flood | undefined;
  if (via === "sigterm") flood = await startFlood(probe);
  const started = performance.now();
  if (via === "eof") probe.closeStdin();
  else probe.signal("SIGTERM");
  // The signal lands mid-flood; writing on while the plugin stops would only pile up answers.
  const sent = await flood?.stop();
  const timeoutMs = context.options.exitTimeoutMs;
  const exit = await probe.waitForExit(timeoutMs);
  const load = sent === undefined ? "" : ` (sent while ${sent} requests streamed in)`;
  const took = formatDuration(performance.now() - started);
  if (!exit) {
    return timer.fail(
      `still running ${formatDuration(timeoutMs)} after ${label}${load} (a host would SIGKILL it now)`,
    );
  }
  if (exit.code === 0) return timer.pass(`exited 0 in ${took}`);
  if (exit.signal === "SIGTERM" && via === "sigterm") {
    return timer.warn(
      `died from SIGTERM's default action in ${took} instead of exiting 0: handle SIGTERM, flush and exit cleanly`,
    );
  }
  return timer.fail(
    `exited with ${formatExit(exit)} after ${label}${load}; expected code 0${stderrHint(probe)}`,
  );
}

interface Flood {
  /** Stops writing; resolves with the number of requests written. */
  stop(): Promise<number>;
}

/** Writes `health` requests in batches (nobody awaits their answers) until stopped. */
async function startFlood(probe: WireProbe): Promise<Flood> {
  let flooding = true;
  let sent = 0;
  void (async () => {
    while (flooding && probe.running) {
      const batch = Array.from(
        { length: FLOOD_BATCH },
        () => `{"jsonrpc":"2.0","id":"flood-${sent++}","method":"health"}`,
      ).join("\n");
      probe.sendRaw(batch);
      await probe.drained();
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, FLOOD_BEFORE_SIGNAL_MS));
  return {
    // Not awaiting the writer: a plugin that stopped reading (a full pipe) never drains,
    // and the check's own exit timeout must still run.
    stop: () => {
      flooding = false;
      return Promise.resolve(sent);
    },
  };
}
