import type { CheckGroup } from "../check-context.js";
import { errorOf, formatExit, stderrHint } from "../probe/outcome-text.js";
import { CheckTimer } from "../report.js";

const GROUP = "framing";
const MiB = 1024 * 1024;
/** Time for the plugin to read and drop the line, on top of the usual reply window. */
const READ_ALLOWANCE_MS = 10_000;

/**
 * The spec caps a frame at 16 MiB. A longer line is not a request the plugin can serve:
 * it must answer -32600 (invalid request, id null) and keep answering. The check sends a
 * 17 MiB request, then a normal one. Crashing or going silent fails; dropping the line
 * without an answer fails too (the host's request would wait out its timeout); another
 * error code, or reading the line as a request, is a warning.
 */
export const longLineGroup: CheckGroup = {
  id: GROUP,
  checks: [{ id: "long-line", title: "a 17 MiB line → -32600, keeps serving" }],
  async run(context) {
    const probe = await context.session({ initialize: true });
    const bytes = context.options.longLineBytes;
    const size = bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${bytes} byte`;
    const timer = new CheckTimer(GROUP, "long-line", `a ${size} line → -32600, keeps serving`);
    const bigId = probe.newId();
    const head = JSON.stringify({ jsonrpc: "2.0", id: bigId, method: "describe", params: { padding: "" } });
    // Pad the empty string so the whole line is exactly `bytes` long.
    const padding = "x".repeat(Math.max(0, bytes - Buffer.byteLength(head)));
    probe.sendRaw(head.replace('"padding":""', `"padding":"${padding}"`));
    const pingId = probe.newId();
    probe.send({ jsonrpc: "2.0", id: pingId, method: "describe" });
    const timeoutMs = context.options.replyTimeoutMs + READ_ALLOWANCE_MS;
    const ping = await probe.waitForResponse(pingId, timeoutMs);
    if (ping.kind === "gone") {
      return [
        timer.fail(
          `the plugin exited (${formatExit(ping.exit ?? probe.exit)}) on a ${size} line${stderrHint(probe)}`,
        ),
      ];
    }
    if (ping.kind === "timeout") {
      return [
        timer.fail(`no answer to the request after a ${size} line within ${Math.round(timeoutMs / 1000)} s`),
      ];
    }
    const big = probe.responses.find(
      (r) => !r.claimed && (r.id === bigId || r.id === null || r.id === undefined),
    );
    if (!big) {
      return [
        timer.fail(
          `dropped a ${size} line without an answer (expected error -32600 with id null; the host's request would wait out its timeout)`,
        ),
      ];
    }
    big.claimed = true;
    const code = errorOf(big.frame)?.code;
    if (code === -32600) return [timer.pass(`answered a ${size} line with -32600 and kept serving`)];
    const handling =
      code === undefined ? "accepted it (reads lines over 16 MiB)" : `answered it with error ${String(code)}`;
    return [timer.warn(`still answering after a ${size} line, but ${handling}; expected -32600`)];
  },
};
