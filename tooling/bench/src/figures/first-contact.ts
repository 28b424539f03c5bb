import { type CommandLine, type Response, SubjectProcess } from "../driver/subject-process.js";
import { readCpuSplitUs } from "../proc-status.js";
import type { FirstContactFigures } from "../results.js";
import { percentile, summarize } from "../stats.js";
import { ENCODE_ARGS } from "./invoke-rate.js";
import { collectRotated, type ProcessSubject, sleep } from "./schedule.js";

/** Sizes of the first-contact figures. */
export interface FirstContactSizes {
  /** Timed runs (a fresh process each) of the contact + first burst and of the sequential calls. */
  runs: number;
  /** Pipelined base64_encode invokes of the first burst. */
  burstCalls: number;
  /** Sequential (ping-pong) invokes timed from the first one on. */
  sequentialCalls: number;
  /** `describe` requests written while stdout is not read. */
  unreadRequests: number;
  /** How long stdout stays unread, ms. */
  unreadHoldMs: number;
  /** Runs of the unread-stdout figure (each holds for {@link unreadHoldMs}). */
  unreadRuns: number;
}

/** What one fresh process measured from its spawn to the end of its first burst. */
export interface ContactRun {
  /** Spawn → `describe` answered, ms. */
  describeMs: number;
  /** Spawn → the first invoke answered (written with describe right after spawn), ms. */
  firstInvokeMs: number;
  /** The first burst, invokes per second (wall clock). */
  burstPerS: number;
  /** The subject's CPU time per invoke of the first burst (all threads), µs; undefined without procfs. */
  cpuPerInvokeUs?: number;
  /**
   * The part of {@link cpuPerInvokeUs} spent on the subject's main thread, where a
   * JavaScript runtime runs the plugin's code (the rest is the runtime's JIT compilers and
   * GC helpers), µs; undefined without schedstat.
   */
  mainThreadCpuPerInvokeUs?: number;
  /** The subject's peak RSS (VmHWM) at the end of the first burst, bytes; undefined without procfs. */
  peakRssBytes?: number;
}

const RSS_SAMPLE_MS = 20;
/** How long the unread describes may take to be answered once stdout is read again. */
const ANSWER_TIMEOUT_MS = 60_000;

/** `answered`, or an error after `ms` (a subject that lost requests would otherwise hang the run). */
async function answeredWithin(answered: Promise<unknown>, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s of reading stdout again`)), ms);
  });
  try {
    await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Throws unless an invoke response is `{ success: true }` with the encoded text. */
function checkEncoded(name: string, response: Response): void {
  const result = response.result as { success?: unknown } | undefined;
  if (result?.success !== true) {
    throw new Error(`${name}: base64_encode failed: ${JSON.stringify(response).slice(0, 300)}`);
  }
}

/**
 * Spawns the subject, writes `describe` and one base64_encode invoke at once (as a host
 * does right after spawning), then — as soon as the invoke is answered — writes a burst of
 * `burstCalls` pipelined invokes. Nothing has warmed the process up.
 */
export async function contactAndBurst(
  name: string,
  line: CommandLine,
  burstCalls: number,
): Promise<ContactRun> {
  const process = new SubjectProcess(name, line);
  try {
    const described = process.request("describe");
    const invoked = process.invoke("base64_encode", ENCODE_ARGS);
    const [describe, invoke] = await Promise.all([described, invoked]);
    if (describe.error) throw new Error(`${name}: describe failed: ${describe.error.message}`);
    checkEncoded(name, invoke);
    const cpuBefore = readCpuSplitUs(process.pid);
    const burst = await process.burst("base64_encode", ENCODE_ARGS, burstCalls);
    const cpuAfter = readCpuSplitUs(process.pid);
    const memory = process.memory();
    if (burst.failures > 0) {
      throw new Error(
        `${name}: ${burst.failures} of ${burstCalls} first-burst invokes failed: ${burst.firstFailure}`,
      );
    }
    const run: ContactRun = {
      describeMs: describe.receivedAt - process.spawnedAt,
      firstInvokeMs: invoke.receivedAt - process.spawnedAt,
      burstPerS: burstCalls / (burst.elapsedMs / 1000),
    };
    if (cpuBefore !== undefined && cpuAfter !== undefined) {
      run.cpuPerInvokeUs = (cpuAfter.totalUs - cpuBefore.totalUs) / burstCalls;
      if (cpuBefore.mainUs !== undefined && cpuAfter.mainUs !== undefined)
        run.mainThreadCpuPerInvokeUs = (cpuAfter.mainUs - cpuBefore.mainUs) / burstCalls;
    }
    if (memory) run.peakRssBytes = memory.peakRssBytes;
    return run;
  } finally {
    await process.close();
  }
}

/** p50 and p99 of the first `calls` sequential invokes of a fresh process that has answered describe, ms. */
export async function firstSequential(
  name: string,
  line: CommandLine,
  calls: number,
): Promise<{ p50: number; p99: number }> {
  const process = new SubjectProcess(name, line);
  try {
    await process.describe();
    const trips: number[] = [];
    for (let i = 0; i < calls; i++) {
      const sent = performance.now();
      const response = await process.invoke("base64_encode", ENCODE_ARGS);
      checkEncoded(name, response);
      trips.push(response.receivedAt - sent);
    }
    return { p50: percentile(trips, 50), p99: percentile(trips, 99) };
  } finally {
    await process.close();
  }
}

/** A describe answer: a manifest with tools. */
function isManifest(result: unknown): boolean {
  return Array.isArray((result as { tools?: unknown } | null)?.tools);
}

/**
 * RSS growth with stdout unread: a fresh process answers describe, then `requests` more
 * `describe` requests are written while the bench does not read its stdout for `holdMs`,
 * sampling VmRSS; then everything is read and every id must be answered exactly once
 * (throws otherwise, and when they are not all answered within `answerTimeoutMs` of reading
 * again). Returns peak VmRSS during the hold − VmRSS before the writes, bytes;
 * undefined without procfs.
 */
export async function unreadGrowth(
  name: string,
  line: CommandLine,
  requests: number,
  holdMs: number,
  answerTimeoutMs = ANSWER_TIMEOUT_MS,
): Promise<number | undefined> {
  const process = new SubjectProcess(name, line);
  try {
    await process.describe();
    const before = process.memory();
    process.pauseOutput();
    const burst = process.startBurst("describe", undefined, requests, isManifest);
    let peak = before?.rssBytes ?? 0;
    const until = performance.now() + holdMs;
    while (performance.now() < until) {
      await sleep(RSS_SAMPLE_MS);
      peak = Math.max(peak, process.memory()?.rssBytes ?? 0);
    }
    process.resumeOutput();
    await answeredWithin(
      burst.answered,
      answerTimeoutMs,
      `${name}: with stdout unread, not every describe was answered`,
    );
    // One more round trip: an id answered a second time would have arrived before it.
    await process.describe();
    const result = burst.end();
    if (result.failures > 0) {
      throw new Error(
        `${name}: with stdout unread, ${result.failures} of ${requests} describe answers were wrong or repeated: ${result.firstFailure}`,
      );
    }
    return before === undefined ? undefined : peak - before.rssBytes;
  } finally {
    await process.close();
  }
}

/** A list of numbers summarized, or nothing when no run measured it. */
function optionalSample(values: readonly (number | undefined)[]) {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length > 0 ? summarize(known) : undefined;
}

/**
 * The first-contact figures of every subject: each run in a new process with no
 * warm-up, subjects in a different order on every run (contact + first burst, then the
 * first sequential invokes, then RSS with stdout unread).
 */
export async function measureFirstContact<S extends ProcessSubject>(
  subjects: readonly S[],
  sizes: FirstContactSizes,
): Promise<Map<string, FirstContactFigures>> {
  const contact = await collectRotated(subjects, sizes.runs, 0, (s) =>
    contactAndBurst(s.label, s.line, sizes.burstCalls),
  );
  const sequential = await collectRotated(subjects, sizes.runs, 0, (s) =>
    firstSequential(s.label, s.line, sizes.sequentialCalls),
  );
  const unread = await collectRotated(subjects, sizes.unreadRuns, 0, (s) =>
    unreadGrowth(s.label, s.line, sizes.unreadRequests, sizes.unreadHoldMs),
  );
  return new Map(
    subjects.map((subject) => {
      const runs = contact.get(subject.id)!;
      const trips = sequential.get(subject.id)!;
      const figures: FirstContactFigures = {
        describeMs: summarize(runs.map((run) => run.describeMs)),
        firstInvokeMs: summarize(runs.map((run) => run.firstInvokeMs)),
        burstPerS: summarize(runs.map((run) => run.burstPerS)),
        sequentialP50Ms: summarize(trips.map((trip) => trip.p50)),
        sequentialP99Ms: summarize(trips.map((trip) => trip.p99)),
      };
      const cpu = optionalSample(runs.map((run) => run.cpuPerInvokeUs));
      if (cpu) figures.burstCpuPerInvokeUs = cpu;
      const peak = optionalSample(runs.map((run) => run.peakRssBytes));
      if (peak) figures.burstPeakRssBytes = peak;
      const growth = optionalSample(unread.get(subject.id)!);
      if (growth) figures.unreadRssGrowthBytes = growth;
      return [subject.id, figures];
    }),
  );
}
