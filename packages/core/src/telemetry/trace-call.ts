import type { InvokeResult } from "../wire/invoke.js";
import type { CallTrace } from "./telemetry.js";

/**
 * Runs a call under `trace` and ends it with the call's outcome: `success: false` is the
 * tool's own failure, a throw or rejection an error answer. Returns what `run` returned.
 */
export function traceCall(
  trace: CallTrace,
  run: () => InvokeResult | Promise<InvokeResult>,
): InvokeResult | Promise<InvokeResult> {
  let answer: InvokeResult | Promise<InvokeResult>;
  try {
    answer = trace.within(run);
  } catch (error) {
    trace.end("error", error);
    throw error;
  }
  if (!(answer instanceof Promise)) {
    trace.end(outcomeOf(answer));
    return answer;
  }
  return answer.then(
    (result) => {
      trace.end(outcomeOf(result));
      return result;
    },
    (error: unknown) => {
      trace.end("error", error);
      throw error;
    },
  );
}

function outcomeOf(result: InvokeResult): "success" | "tool_error" {
  return result.success ? "success" : "tool_error";
}
