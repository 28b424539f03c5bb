import type { CheckGroup } from "../check-context.js";
import { formatAnswer, noAnswer } from "../probe/outcome-text.js";
import { CheckTimer } from "../report.js";

const GROUP = "notifications";

/** How long to keep listening for stray answers after the follow-up request was answered. */
const SETTLE_MS = 300;

/**
 * A notification (a request without `id`) must never be answered — neither for an
 * unknown method nor for a known one. Sends both, then a request, and looks for any
 * response that answers nothing the checker asked.
 */
export const notificationsGroup: CheckGroup = {
  id: GROUP,
  checks: [{ id: "notifications", title: "notifications unanswered" }],
  async run(context) {
    const probe = await context.session({ initialize: true });
    const timer = new CheckTimer(GROUP, "notifications", "notifications unanswered");
    probe.send({ jsonrpc: "2.0", method: "executa-check/unknown-notification", params: {} });
    probe.send({ jsonrpc: "2.0", method: "health" });
    probe.send({ jsonrpc: "2.0", method: "describe" });
    const timeoutMs = context.options.replyTimeoutMs;
    const ping = await probe.request("describe", undefined, timeoutMs);
    if (ping.kind !== "response") {
      return [
        timer.fail(`after three notifications: ${noAnswer(ping, "the next request", probe, timeoutMs)}`),
      ];
    }
    await probe.settle(SETTLE_MS);
    const stray = probe.responses.filter((r) => !r.claimed);
    if (stray.length > 0) {
      return [
        timer.fail(
          `answered ${stray.length} of 3 notifications, e.g. with ${formatAnswer(stray[0]!.frame)}`,
          {
            answers: stray.map((r) => r.frame),
          },
        ),
      ];
    }
    return [timer.pass("3 notifications (unknown, health, describe) left unanswered")];
  },
};
