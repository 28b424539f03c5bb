import type { ValidationPair } from "../probe.js";
import type { ValidationFigure } from "../results.js";
import { summarize } from "../stats.js";
import type { Subject } from "../subjects.js";
import { withSessions } from "./schedule.js";

/**
 * Validation overhead on one subject: `calls` pipelined invokes of the 10-field DTO tool
 * against the same number of the unvalidated twin, alternating which goes first. Checks
 * first that the validated tool really rejects a bad DTO (-32602), so the figure cannot
 * silently measure a tool that validates nothing.
 */
export async function measureValidation(
  subject: Subject,
  pair: ValidationPair,
  calls: number,
  runs: number,
  warmups: number,
): Promise<ValidationFigure> {
  return withSessions([subject], async ([session]) => {
    const process = session!.process;
    const rejected = await process.invoke(pair.validated, { ...pair.args, email: "not an e-mail", age: -1 });
    if (rejected.error?.code !== -32602) {
      throw new Error(
        `${subject.label}: ${pair.validated} accepted an invalid DTO: ${JSON.stringify(rejected).slice(0, 300)}`,
      );
    }
    const validated: number[] = [];
    const unchecked: number[] = [];
    for (let run = 0; run < warmups + runs; run++) {
      const order = run % 2 === 0 ? [pair.validated, pair.unchecked] : [pair.unchecked, pair.validated];
      for (const tool of order) {
        const burst = await process.burst(tool, pair.args, calls);
        if (burst.failures > 0) {
          throw new Error(
            `${subject.label}: ${burst.failures} of ${calls} ${tool} invokes failed: ${burst.firstFailure}`,
          );
        }
        if (run < warmups) continue;
        (tool === pair.validated ? validated : unchecked).push(calls / (burst.elapsedMs / 1000));
      }
    }
    const validatedPerS = summarize(validated);
    const uncheckedPerS = summarize(unchecked);
    return {
      validatedTool: pair.validated,
      uncheckedTool: pair.unchecked,
      validatedPerS,
      uncheckedPerS,
      overhead: uncheckedPerS.median / validatedPerS.median,
    };
  });
}
