import type { ProbeExit, ReplyOutcome, WireProbe } from "./wire-probe.js";

/** The `error` member of a response frame, when it is one. */
export function errorOf(
  frame: Record<string, unknown>,
): { code: unknown; message: unknown; data: unknown } | undefined {
  const error = frame.error;
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message, data } = error as Record<string, unknown>;
  return { code, message, data };
}

/** "code 0", "signal SIGTERM", "still running". */
export function formatExit(exit: ProbeExit | undefined): string {
  if (!exit) return "still running";
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}

/** A second-or-so figure: "5 s", "250 ms". */
export function formatDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${Math.round(ms)} ms`;
}

/**
 * The most telling recent stderr line, as a hint of why a plugin died: the last line
 * naming an error, else the last one that is not a stack frame or Node's version banner.
 */
export function stderrHint(probe: WireProbe): string {
  const lines = [...probe.stderr].reverse().filter((line) => line.trim() !== "");
  const last =
    lines.find((line) => /\b\w*(Error|Exception)\b/.test(line) && !/^\s+at /.test(line)) ??
    lines.find((line) => !/^\s+at /.test(line) && !/^Node\.js v\d/.test(line));
  if (!last) return "";
  return `; stderr: ${last.length > 120 ? `${last.slice(0, 120)}…` : last}`;
}

/** Why there is no answer, in words: "no answer to describe within 5 s". */
export function noAnswer(
  outcome: Exclude<ReplyOutcome, { kind: "response" }>,
  what: string,
  probe: WireProbe,
  timeoutMs: number,
): string {
  if (outcome.kind === "timeout") return `no answer to ${what} within ${formatDuration(timeoutMs)}`;
  const exit = outcome.exit ?? probe.exit;
  return exit
    ? `the plugin exited (${formatExit(exit)}) before answering ${what}${stderrHint(probe)}`
    : `the plugin closed stdout before answering ${what}`;
}

/** A short view of an answer: "error -32601 (Method not found)" or "result {...}". */
export function formatAnswer(frame: Record<string, unknown>): string {
  const error = errorOf(frame);
  if (error)
    return `error ${String(error.code)}${typeof error.message === "string" ? ` (${cut(error.message)})` : ""}`;
  if ("result" in frame) return `result ${cut(JSON.stringify(frame.result) ?? "undefined")}`;
  return cut(JSON.stringify(frame));
}

function cut(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
