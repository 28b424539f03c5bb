import type { BurstResult, SubjectProcess } from "../driver/subject-process.js";
import { readCpuTimeMs } from "../proc-status.js";
import { percentile, type Sample, summarize } from "../stats.js";
import type { Subject } from "../subjects.js";
import {
  describeHandshake,
  type Handshake,
  inFreshProcesses,
  type ProcessSubject,
  type Session,
} from "./schedule.js";

/** The argument of every base64_encode call in the throughput and latency figures. */
export const ENCODE_ARGS = Object.freeze({ text: "The quick brown fox jumps over the lazy dog 0123456789" });

/** The throughput figure of one subject. */
export interface ThroughputFigure {
  /** Invokes per second, wall clock. */
  perS: Sample;
  /**
   * The subject's CPU time (all threads) per invoke during the burst, µs. Less sensitive
   * to a busy machine than wall time; absent without procfs.
   */
  cpuPerInvokeUs?: Sample;
}

/** The protocol a throughput burst speaks: how a fresh process is made ready, and the burst. */
export interface BurstProtocol {
  handshake: Handshake;
  burst: (process: SubjectProcess, calls: number) => Promise<BurstResult>;
  /** What the requests are called in a failure message. */
  requests: string;
}

/** Executa: `describe`, then base64_encode invokes. */
export const INVOKE_BURSTS: BurstProtocol = {
  handshake: describeHandshake,
  burst: (process, calls) => process.burst("base64_encode", ENCODE_ARGS, calls),
  requests: "invokes",
};

/**
 * Throughput: `calls` base64_encode requests (by default Executa invokes) written back to
 * back without waiting (pipelined), timed until the last answer; requests per second, and
 * the subject's CPU time per request. Each run in a fresh process warmed up with the same
 * burst, runs interleaved across subjects.
 */
export async function measureThroughput<S extends ProcessSubject = Subject>(
  subjects: readonly S[],
  calls: number,
  runs: number,
  warmups: number,
  protocol: BurstProtocol = INVOKE_BURSTS,
): Promise<Map<string, ThroughputFigure>> {
  const rates = new Map<string, number[]>(subjects.map((subject) => [subject.id, []]));
  const cpu = new Map<string, number[]>(subjects.map((subject) => [subject.id, []]));
  const pass = async ({ subject, process }: Session<S>, timed: boolean) => {
    const cpuBefore = readCpuTimeMs(process.pid);
    const burst = await protocol.burst(process, calls);
    const cpuAfter = readCpuTimeMs(process.pid);
    if (burst.failures > 0) {
      throw new Error(
        `${subject.label}: ${burst.failures} of ${calls} ${protocol.requests} failed: ${burst.firstFailure}`,
      );
    }
    if (!timed) return;
    rates.get(subject.id)!.push(calls / (burst.elapsedMs / 1000));
    if (cpuBefore !== undefined && cpuAfter !== undefined) {
      cpu.get(subject.id)!.push(((cpuAfter - cpuBefore) * 1000) / calls);
    }
  };
  await inFreshProcesses(subjects, runs, warmups, pass, protocol.handshake);
  return new Map(
    subjects.map((subject) => {
      const figure: ThroughputFigure = { perS: summarize(rates.get(subject.id)!) };
      const cpuValues = cpu.get(subject.id)!;
      if (cpuValues.length > 0) figure.cpuPerInvokeUs = summarize(cpuValues);
      return [subject.id, figure];
    }),
  );
}

/**
 * Latency: `calls` base64_encode invokes one at a time (each sent when the previous
 * answer arrived); p50 and p99 of the round trips of each run, each run in a fresh
 * process warmed up with the same calls.
 */
export async function measureLatency(
  subjects: readonly Subject[],
  calls: number,
  runs: number,
  warmups: number,
): Promise<Map<string, { p50: Sample; p99: Sample }>> {
  const p50 = new Map<string, number[]>(subjects.map((subject) => [subject.id, []]));
  const p99 = new Map<string, number[]>(subjects.map((subject) => [subject.id, []]));
  await inFreshProcesses(subjects, runs, warmups, async ({ subject, process }, timed) => {
    const trips: number[] = [];
    for (let i = 0; i < calls; i++) {
      const sent = performance.now();
      const response = await process.invoke("base64_encode", ENCODE_ARGS);
      trips.push(response.receivedAt - sent);
      if ((response.result as { success?: unknown } | undefined)?.success !== true) {
        throw new Error(`${subject.label}: invoke failed: ${JSON.stringify(response).slice(0, 300)}`);
      }
    }
    if (!timed) return;
    p50.get(subject.id)!.push(percentile(trips, 50));
    p99.get(subject.id)!.push(percentile(trips, 99));
  });
  return new Map(
    subjects.map((subject) => [
      subject.id,
      { p50: summarize(p50.get(subject.id)!), p99: summarize(p99.get(subject.id)!) },
    ]),
  );
}
