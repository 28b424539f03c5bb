import type { CommandLine } from "../driver/subject-process.js";
import { contactAndBurst } from "../figures/first-contact.js";
import type { GatePair, GateRun } from "./decide.js";

/** What the gate runs against what. */
export interface GateSubjects {
  subject: { name: string; line: CommandLine };
  baseline: { name: string; line: CommandLine };
}

/** How many pairs to measure, and for how long at most. */
export interface PairSchedule {
  runs: number;
  burstCalls: number;
  /** No pair is started after this many ms (once {@link minRuns} are done): a loaded machine ends with fewer pairs, not late. */
  deadlineMs: number;
  minRuns: number;
}

/**
 * Up to `runs` pairs of fresh processes, the subject and the baseline one after the other
 * (which goes first alternates), each spawned with describe + one invoke written at once,
 * then its first burst of `burstCalls` pipelined invokes. Nothing is warmed up.
 */
export async function measurePairs(
  subjects: GateSubjects,
  schedule: PairSchedule,
  progress: (done: number) => void = () => {},
): Promise<GatePair[]> {
  const { runs, burstCalls } = schedule;
  const deadline = performance.now() + schedule.deadlineMs;
  const pairs: GatePair[] = [];
  const once = async ({ name, line }: GateSubjects["subject"]): Promise<GateRun> => {
    const run = await contactAndBurst(name, line, burstCalls);
    const out: GateRun = { firstInvokeMs: run.firstInvokeMs };
    if (run.cpuPerInvokeUs !== undefined) out.cpuPerInvokeUs = run.cpuPerInvokeUs;
    if (run.mainThreadCpuPerInvokeUs !== undefined)
      out.mainThreadCpuPerInvokeUs = run.mainThreadCpuPerInvokeUs;
    if (run.peakRssBytes !== undefined) out.peakRssBytes = run.peakRssBytes;
    return out;
  };
  for (let run = 0; run < runs; run++) {
    if (run >= schedule.minRuns && performance.now() > deadline) break;
    if (run % 2 === 0) {
      const subject = await once(subjects.subject);
      pairs.push({ subject, baseline: await once(subjects.baseline) });
    } else {
      const baseline = await once(subjects.baseline);
      pairs.push({ subject: await once(subjects.subject), baseline });
    }
    progress(run + 1);
  }
  return pairs;
}
