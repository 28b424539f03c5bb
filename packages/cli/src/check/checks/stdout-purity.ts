import type { StdoutLine } from "../probe/stdout-line.js";
import { type CheckResult, CheckTimer } from "../report.js";

/**
 * "stdout is for protocol responses only": every line the plugin wrote to stdout, over
 * every session the checker ran, must be a JSON-RPC 2.0 object.
 */
export function judgeStdoutPurity(lines: readonly StdoutLine[], sessions: number): CheckResult {
  const timer = new CheckTimer("stdout", "stdout-purity", "stdout purity");
  const impure = lines.filter((line) => line.kind !== "frame");
  if (impure.length === 0) {
    return timer.pass(`all ${lines.length} stdout line(s) of ${sessions} session(s) were JSON-RPC frames`);
  }
  const first = impure[0]!;
  const kind =
    first.kind === "text" ? "non-JSON" : first.kind === "json" ? "JSON but not JSON-RPC" : first.kind;
  return timer.fail(
    `${impure.length} of ${lines.length} stdout line(s) were not JSON-RPC, first (${kind}): ${first.preview}`,
    { lines: impure.slice(0, 20).map(({ kind, preview, bytes }) => ({ kind, preview, bytes })) },
  );
}
