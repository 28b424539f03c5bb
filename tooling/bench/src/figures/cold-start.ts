import { SubjectProcess } from "../driver/subject-process.js";
import type { Sample } from "../stats.js";
import type { Subject } from "../subjects.js";
import { sampleRotated } from "./schedule.js";

/**
 * Cold start: from `spawn` to the `describe` answer read back (for the floor, which
 * speaks no protocol: to its exit). `describe` is written right after spawning, as a
 * host does; it waits in the pipe until the plugin reads it.
 */
export async function measureColdStart(
  subjects: readonly Subject[],
  runs: number,
  warmups: number,
): Promise<Map<string, Sample>> {
  return sampleRotated(subjects, runs, warmups, coldStartOnce);
}

async function coldStartOnce(subject: Subject): Promise<number> {
  const process = new SubjectProcess(subject.id, subject.line);
  if (!subject.serves) {
    const { code } = await process.exited;
    const ms = performance.now() - process.spawnedAt;
    if (code !== 0) throw new Error(`${subject.label} exited with code ${code}: ${process.stderr}`);
    return ms;
  }
  try {
    const response = await process.request("describe");
    if (response.error) throw new Error(`${subject.label}: describe failed: ${response.error.message}`);
    return response.receivedAt - process.spawnedAt;
  } finally {
    await process.close();
  }
}
