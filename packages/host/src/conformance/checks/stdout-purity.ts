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
  const kind = kindLabel(first);
  return timer.fail(
    `${impure.length} of ${lines.length} stdout line(s) were not JSON-RPC, first (${kind}): ${first.preview}`,
    { lines: impure.slice(0, 20).map(({ kind, preview, bytes }) => ({ kind, preview, bytes })) },
  );
}

function kindLabel(line: StdoutLine): string {
  if (line.kind === "text") return "non-JSON";
  if (line.kind !== "json") return line.kind;
  const found = line.class;
  // A broken frame says what is wrong with it; a log line is just not JSON-RPC.
  return found?.kind === "not-a-frame" && found.attempted !== undefined
    ? `not a valid frame: ${found.why}`
    : "JSON but not JSON-RPC";
}
