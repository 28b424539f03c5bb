import type { SubjectProcess } from "../driver/subject-process.js";
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
    await expectRejectsBadDto(subject, process, pair);
    const rates = new Map<string, number[]>([
      [pair.validated, []],
      [pair.unchecked, []],
    ]);
    for (let run = 0; run < warmups + runs; run++) {
      const order = run % 2 === 0 ? [pair.validated, pair.unchecked] : [pair.unchecked, pair.validated];
      for (const tool of order) {
        const rate = await burstRate(subject, process, tool, pair.args, calls);
        if (run >= warmups) rates.get(tool)!.push(rate);
      }
    }
    const validatedPerS = summarize(rates.get(pair.validated)!);
    const uncheckedPerS = summarize(rates.get(pair.unchecked)!);
    return {
      validatedTool: pair.validated,
      uncheckedTool: pair.unchecked,
      validatedPerS,
      uncheckedPerS,
      overhead: uncheckedPerS.median / validatedPerS.median,
    };
  });
}

/** Throws unless the validated tool answers an invalid DTO with -32602. */
async function expectRejectsBadDto(
  subject: Subject,
  process: SubjectProcess,
  pair: ValidationPair,
): Promise<void> {
  const rejected = await process.invoke(pair.validated, { ...pair.args, email: "not an e-mail", age: -1 });
  if (rejected.error?.code !== -32602) {
    throw new Error(
      `${subject.label}: ${pair.validated} accepted an invalid DTO: ${JSON.stringify(rejected).slice(0, 300)}`,
    );
  }
}

/** Invokes per second of `calls` pipelined invokes of `tool`; throws if any failed. */
async function burstRate(
  subject: Subject,
  process: SubjectProcess,
  tool: string,
  args: Record<string, unknown>,
  calls: number,
): Promise<number> {
  const burst = await process.burst(tool, args, calls);
  if (burst.failures > 0) {
    throw new Error(
      `${subject.label}: ${burst.failures} of ${calls} ${tool} invokes failed: ${burst.firstFailure}`,
    );
  }
  return calls / (burst.elapsedMs / 1000);
}
