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
