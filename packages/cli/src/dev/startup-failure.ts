import { neverServedHint } from "@executa/core/internal";
import { crashSummary } from "./crash-summary.js";
import { exitOf, exitText } from "./exit-text.js";
import type { DevTarget } from "./target.js";

/**
 * The error `executa dev` ends with when the plugin did not start: what happened, then
 * the useful lines of its stderr (see {@link crashSummary}) indented below, or, for a
 * process that exited cleanly without answering, the likely cause: an entry that never
 * serves. `stderr` is everything the plugin wrote during the start; `step` the request it
 * was answering.
 */
export function startupFailure(
  target: DevTarget,
  error: unknown,
  stderr: readonly string[],
  step: "initialize" | "describe",
): Error {
  const exit = exitOf(error);
  const what = exit ? `the plugin ${exitText(exit)} before answering ${step}` : (error as Error).message;
  const below = crashSummary(stderr);
  if (exit?.code === 0) below.push(missingServeHint(target));
  const text = [`${target.label} did not start: ${what}`, ...below.map((line) => `  ${line}`)].join("\n");
  return new Error(text, { cause: error });
}

/** Why a plugin that exits 0 before the handshake usually does. */
export function missingServeHint(target: DevTarget): string {
  return neverServedHint(
    target.kind === "command" ? `the command \`${target.label}\`` : `the entry ${target.label}`,
  );
}
