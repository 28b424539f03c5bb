import { SubjectProcess } from "../driver/subject-process.js";
import type { Subject } from "../subjects.js";

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

/** A started subject that has answered describe. */
export interface Session {
  subject: Subject;
  process: SubjectProcess;
}

/**
 * Starts every subject, waits for each to answer describe, runs `body` with all of them
 * alive (so runs can interleave subjects), and closes them whatever happens.
 */
export async function withSessions<T>(
  subjects: readonly Subject[],
  body: (sessions: Session[]) => Promise<T>,
): Promise<T> {
  const sessions = subjects.map((subject) => ({
    subject,
    process: new SubjectProcess(subject.id, subject.line),
  }));
  try {
    await Promise.all(sessions.map((session) => session.process.describe()));
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
export async function inFreshProcesses(
  subjects: readonly Subject[],
  runs: number,
  warmups: number,
  pass: (session: Session, timed: boolean) => Promise<void>,
): Promise<void> {
  for (let run = 0; run < runs; run++) {
    for (const subject of rotated(subjects, run)) {
      await withSessions([subject], async ([session]) => {
        for (let warmup = 0; warmup < warmups; warmup++) await pass(session!, false);
        await pass(session!, true);
      });
    }
  }
}
