import { type CommandLine, SubjectProcess } from "../driver/subject-process.js";
import { type Sample, summarize } from "../stats.js";
import type { Subject } from "../subjects.js";

/** What the schedules need of a subject: its key, its name and how to start it. */
export interface ProcessSubject {
  id: string;
  label: string;
  line: CommandLine;
}

/** Makes a started process ready for the figure's requests (the protocol's handshake). */
export type Handshake = (process: SubjectProcess, subject: ProcessSubject) => Promise<unknown>;

/** The Executa handshake: `describe` answered. */
export const describeHandshake: Handshake = (process) => process.describe();

/**
 * The subjects in a different order on every run, so that no subject is always measured
 * first (right after a spawn burst) or last (when the machine has warmed up).
 */
export function rotated<T>(items: readonly T[], run: number): T[] {
  if (items.length === 0) return [];
  const shift = run % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

/** Sleeps for `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A started subject that has completed the handshake (by default: answered describe). */
export interface Session<S extends ProcessSubject = Subject> {
  subject: S;
  process: SubjectProcess;
}

/**
 * Starts every subject, waits for each to complete `handshake`, runs `body` with all of
 * them alive (so runs can interleave subjects), and closes them whatever happens.
 */
export async function withSessions<S extends ProcessSubject, T>(
  subjects: readonly S[],
  body: (sessions: Session<S>[]) => Promise<T>,
  handshake: Handshake = describeHandshake,
): Promise<T> {
  const sessions = subjects.map((subject) => ({
    subject,
    process: new SubjectProcess(subject.id, subject.line),
  }));
  try {
    await Promise.all(sessions.map((session) => handshake(session.process, session.subject)));
    return await body(sessions);
  } finally {
    await Promise.all(sessions.map((session) => session.process.close()));
  }
}

/**
 * Runs `pass` `warmups + 1` times per subject and run, the last one timed, in a fresh
 * process for every run, subjects interleaved. One long-lived process per subject would
 * fix its JIT and heap state, and which core it landed on, for all runs: a median of seven
 * runs in one process is one sample of that state. A process per run samples it.
 */
export async function inFreshProcesses<S extends ProcessSubject>(
  subjects: readonly S[],
  runs: number,
  warmups: number,
  pass: (session: Session<S>, timed: boolean) => Promise<void>,
  handshake: Handshake = describeHandshake,
): Promise<void> {
  for (let run = 0; run < runs; run++) {
    for (const subject of rotated(subjects, run)) {
      await withSessions(
        [subject],
        async ([session]) => {
          for (let warmup = 0; warmup < warmups; warmup++) await pass(session!, false);
          await pass(session!, true);
        },
        handshake,
      );
    }
  }
}

/**
 * Calls `once` on each subject `warmups + runs` times, subjects in a different order on
 * every run, and keeps what the runs after the warmups answered, per subject id.
 */
export async function collectRotated<S extends ProcessSubject, T>(
  subjects: readonly S[],
  runs: number,
  warmups: number,
  once: (subject: S) => Promise<T>,
): Promise<Map<string, T[]>> {
  const values = new Map<string, T[]>(subjects.map((subject) => [subject.id, []]));
  for (let run = 0; run < warmups + runs; run++) {
    for (const subject of rotated(subjects, run)) {
      const value = await once(subject);
      if (run >= warmups) values.get(subject.id)!.push(value);
    }
  }
  return values;
}

/** {@link collectRotated} of a measurement in numbers, summarized per subject id. */
export async function sampleRotated<S extends ProcessSubject>(
  subjects: readonly S[],
  runs: number,
  warmups: number,
  once: (subject: S) => Promise<number>,
): Promise<Map<string, Sample>> {
  const values = await collectRotated(subjects, runs, warmups, once);
  return new Map([...values].map(([id, list]) => [id, summarize(list)]));
}
