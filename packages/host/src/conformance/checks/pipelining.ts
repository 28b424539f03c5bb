import type { CheckGroup } from "../check-context.js";
import { formatExit, stderrHint } from "../probe/outcome-text.js";
import { sameId } from "../probe/wire-probe.js";
import { CheckTimer } from "../report.js";

const GROUP = "pipelining";
const METHODS = ["describe", "health", "executa-check/no-such-method"] as const;

/**
 * A host does not wait for one answer before sending the next request. Writes a burst
 * of requests in one write (numeric and string ids, known and unknown methods) and
 * expects exactly one answer per id, with the id echoed as sent (same type).
 */
export const pipeliningGroup: CheckGroup = {
  id: GROUP,
  checks: [{ id: "pipelining", title: "pipelined requests all answered" }],
  async run(context) {
    const probe = await context.session({ initialize: true });
    const timer = new CheckTimer(GROUP, "pipelining", "pipelined requests all answered");
    const count = context.options.pipelineCount;
    const ids: (string | number)[] = [];
    const lines: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = i % 2 === 0 ? probe.newId() + 100_000 : `pipe-${i}`;
      ids.push(id);
      lines.push(JSON.stringify({ jsonrpc: "2.0", id, method: METHODS[i % METHODS.length] }));
    }
    const started = performance.now();
    probe.sendRaw(lines.join("\n"));
    const timeoutMs = context.options.replyTimeoutMs + count * 100;
    const answeredIn = (id: unknown) => probe.responses.filter((r) => sameId(r.id, id));
    await probe.waitFor(() => (ids.every((id) => answeredIn(id).length > 0) ? true : undefined), timeoutMs);
    const elapsed = Math.round(performance.now() - started);
    await probe.settle(100);
    const missing = ids.filter((id) => answeredIn(id).length === 0);
    const duplicated = ids.filter((id) => answeredIn(id).length > 1);
    for (const response of probe.responses) response.claimed = true;
    const order = probe.responses.map((r) => r.id).filter((id) => ids.some((sent) => sameId(sent, id)));
    const inOrder = order.every((id, index) => sameId(id, ids[index]));
    const details = { sent: ids, answered: order, elapsedMs: elapsed };
    if (missing.length > 0) {
      const why = probe.running ? "" : ` (the plugin exited, ${formatExit(probe.exit)}${stderrHint(probe)})`;
      const mistyped = missing.filter((id) => probe.responses.some((r) => String(r.id) === String(id)));
      const typeNote = mistyped.length > 0 ? `; ${mistyped.length} answered with the id's type changed` : "";
      return [timer.fail(`${count - missing.length}/${count} answered${why}${typeNote}`, details)];
    }
    if (duplicated.length > 0) {
      return [timer.fail(`${duplicated.length} request(s) answered more than once`, details)];
    }
    return [
      timer.pass(
        `${count}/${count} answered in ${elapsed} ms (${inOrder ? "in order" : "out of order"})`,
        details,
      ),
    ];
  },
};
