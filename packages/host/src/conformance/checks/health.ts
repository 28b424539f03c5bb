import { validateHealthResult } from "@executa/core/internal";
import type { CheckGroup } from "../check-context.js";
import { errorOf, formatAnswer, formatDuration, noAnswer } from "../probe/outcome-text.js";
import { type CheckResult, CheckTimer } from "../report.js";

const GROUP = "health";

/**
 * The spec makes `health` optional: a -32601 answer "is treated as healthy", so it is a
 * WARN (conformant, but a host cannot tell `initializing` from `ready`), never a FAIL.
 * An answer must come within the spec's 3 s; a result is judged by core's validator.
 */
export const healthGroup: CheckGroup = {
  id: GROUP,
  checks: [{ id: "health", title: "health status value" }],
  async run(context) {
    const probe = await context.session({ initialize: true });
    const timer = healthTimer();
    const timeoutMs = context.options.healthTimeoutMs;
    const outcome = await probe.request("health", undefined, timeoutMs);
    if (outcome.kind !== "response") return [timer.fail(noAnswer(outcome, "health", probe, timeoutMs))];
    return [judgeHealthAnswer(timer, outcome.frame, ` in ${formatDuration(outcome.ms)}`)];
  },
};

/** The timer of the health check. */
export function healthTimer(): CheckTimer {
  return new CheckTimer(GROUP, "health", "health status value");
}

/** Judges the answer to `health`; `when` ends the reason of a pass (" in 12 ms"). */
export function judgeHealthAnswer(timer: CheckTimer, frame: Record<string, unknown>, when = ""): CheckResult {
  const error = errorOf(frame);
  if (error) {
    if (error.code === -32601) {
      return timer.warn(
        "not implemented (-32601): the spec treats that as healthy, but a host cannot see the plugin initializing or failing; implement health",
      );
    }
    return timer.fail(`answered health with ${formatAnswer(frame)}; expected a status or -32601`);
  }
  const result = frame.result;
  const problems = validateHealthResult(result);
  const failed = problems.filter((p) => p.severity === "error");
  if (failed.length > 0) return timer.fail(failed.map((p) => p.message).join("; "), { result });
  const status = String((result as { status: unknown }).status);
  if (problems.length > 0)
    return timer.warn(`status "${status}", but ${problems.map((p) => p.message).join("; ")}`, { result });
  return timer.pass(`status "${status}"${when}`);
}
