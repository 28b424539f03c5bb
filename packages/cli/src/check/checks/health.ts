import { HEALTH_STATUSES } from "@executa/core";
import type { CheckGroup } from "../check-context.js";
import { errorOf, formatAnswer, formatDuration, noAnswer } from "../probe/outcome-text.js";
import { CheckTimer } from "../report.js";

const GROUP = "health";

/**
 * `health` is optional: -32601 means healthy. When answered, `status` must be one of
 * `ready`, `error`, `initializing`, within the spec's 3 s.
 */
export const healthGroup: CheckGroup = {
  id: GROUP,
  checks: [{ id: "health", title: "health status value" }],
  async run(context) {
    const probe = await context.session({ initialize: true });
    const timer = new CheckTimer(GROUP, "health", "health status value");
    const timeoutMs = context.options.healthTimeoutMs;
    const outcome = await probe.request("health", undefined, timeoutMs);
    if (outcome.kind !== "response") return [timer.fail(noAnswer(outcome, "health", probe, timeoutMs))];
    const error = errorOf(outcome.frame);
    if (error) {
      if (error.code === -32601)
        return [timer.pass("not implemented (-32601), which a host treats as healthy")];
      return [timer.fail(`answered health with ${formatAnswer(outcome.frame)}; expected a status or -32601`)];
    }
    const result = outcome.frame.result as Record<string, unknown> | null | undefined;
    const status = typeof result === "object" && result !== null ? result.status : undefined;
    if (!(HEALTH_STATUSES as readonly unknown[]).includes(status)) {
      return [
        timer.fail(
          `status ${JSON.stringify(status) ?? "missing"} is not one of ${HEALTH_STATUSES.join(", ")}`,
          {
            result,
          },
        ),
      ];
    }
    const problems: string[] = [];
    if (result!.message !== undefined && typeof result!.message !== "string")
      problems.push("message is not a string");
    const details = result!.details;
    if (details !== undefined && (typeof details !== "object" || details === null || Array.isArray(details)))
      problems.push("details is not an object");
    if (problems.length > 0)
      return [timer.warn(`status "${String(status)}", but ${problems.join("; ")}`, { result })];
    return [timer.pass(`status "${String(status)}" in ${formatDuration(outcome.ms)}`)];
  },
};
