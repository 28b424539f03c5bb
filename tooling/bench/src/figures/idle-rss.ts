import { SubjectProcess } from "../driver/subject-process.js";
import { type Sample, summarize } from "../stats.js";
import type { Subject } from "../subjects.js";
import { rotated, sleep } from "./schedule.js";

/**
 * Idle RSS: a fresh process answers describe, sits idle for `settleMs`, then its VmRSS
 * (and the anonymous part of it, RssAnon) is read. Returns nothing where there is no
 * procfs.
 */
export async function measureIdleRss(
  subjects: readonly Subject[],
  settleMs: number,
  runs: number,
): Promise<Map<string, { rss: Sample; anonRss?: Sample }>> {
  const values = new Map<string, number[]>(subjects.map((subject) => [subject.id, []]));
  const anon = new Map<string, number[]>(subjects.map((subject) => [subject.id, []]));
  for (let run = 0; run < runs; run++) {
    for (const subject of rotated(subjects, run)) {
      const process = new SubjectProcess(subject.id, subject.line);
      try {
        await process.describe();
        await sleep(settleMs);
        const memory = process.memory();
        if (!memory) return new Map();
        values.get(subject.id)!.push(memory.rssBytes);
        if (memory.anonRssBytes !== undefined) anon.get(subject.id)!.push(memory.anonRssBytes);
      } finally {
        await process.close();
      }
    }
  }
  return new Map(
    subjects.map((subject) => {
      const anonValues = anon.get(subject.id)!;
      const figure: { rss: Sample; anonRss?: Sample } = { rss: summarize(values.get(subject.id)!) };
      if (anonValues.length > 0) figure.anonRss = summarize(anonValues);
      return [subject.id, figure];
    }),
  );
}
