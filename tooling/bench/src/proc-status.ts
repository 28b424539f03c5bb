import { readFileSync } from "node:fs";

/** Memory figures of a live process, in bytes. */
export interface ProcessMemory {
  /** Resident set size now (VmRSS). */
  rssBytes: number;
  /** Peak resident set size over the process's life so far (VmHWM). */
  peakRssBytes: number;
}

/**
 * Reads VmRSS and VmHWM of a live process from /proc/<pid>/status. Returns undefined
 * where there is no procfs (not Linux) or the process is gone.
 */
export function readProcessMemory(pid: number): ProcessMemory | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  const rss = kibField(text, "VmRSS");
  const peak = kibField(text, "VmHWM");
  if (rss === undefined || peak === undefined) return undefined;
  return { rssBytes: rss * 1024, peakRssBytes: peak * 1024 };
}

function kibField(status: string, name: string): number | undefined {
  const match = new RegExp(`^${name}:\\s+(\\d+)\\s+kB$`, "m").exec(status);
  return match ? Number(match[1]) : undefined;
}
