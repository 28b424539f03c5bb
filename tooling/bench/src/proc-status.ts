import { readdirSync, readFileSync } from "node:fs";

/** Memory figures of a live process, in bytes. */
export interface ProcessMemory {
  /** Resident set size now (VmRSS). */
  rssBytes: number;
  /** Peak resident set size over the process's life so far (VmHWM). */
  peakRssBytes: number;
  /**
   * The anonymous part of the RSS (RssAnon: heaps, stacks), without file-backed pages
   * such as the mapped executable, which the page cache shares between processes.
   */
  anonRssBytes?: number;
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
  const memory: ProcessMemory = { rssBytes: rss * 1024, peakRssBytes: peak * 1024 };
  const anon = kibField(text, "RssAnon");
  if (anon !== undefined) memory.anonRssBytes = anon * 1024;
  return memory;
}

function kibField(status: string, name: string): number | undefined {
  const match = new RegExp(`^${name}:\\s+(\\d+)\\s+kB$`, "m").exec(status);
  return match ? Number(match[1]) : undefined;
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

/**
 * CPU time (user + system, all threads) a live process has used so far, in ms, from
 * /proc/<pid>/stat — at 10 ms resolution, so measure spans of many invokes. Undefined
 * without procfs.
 */
export function readCpuTimeMs(pid: number): number | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Fields after the parenthesized command name, which may itself contain spaces.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
  return ((utime + stime) * 1000) / USER_HZ;
}

/** A process's CPU time so far, in µs: all its threads, and its main thread alone. */
export interface CpuSplit {
  totalUs: number;
  /**
   * The main thread's share (the thread whose id is the pid: where a JavaScript runtime
   * runs the plugin's code); the rest is the runtime's own threads (JIT compilers, GC
   * helpers). Undefined where schedstat is missing.
   */
  mainUs?: number;
}

/**
 * CPU time a live process has run on a CPU so far, in µs at nanosecond resolution, and its
 * main thread's share of it (see {@link CpuSplit}): the sum of
 * `/proc/<pid>/task/<tid>/schedstat` over its threads. Falls back to
 * {@link readCpuTimeMs} (10 ms ticks, but counting threads that have exited; no main
 * thread's share) where schedstat is missing; undefined without procfs. A thread that exits between two reads
 * takes its time with it, so measure spans during which the runtime keeps its threads.
 * A thread on a CPU has its time brought up to date only at a scheduler tick or when it
 * leaves the CPU: a span of a millisecond or two can read 0, so measure longer ones.
 */
export function readCpuSplitUs(pid: number): CpuSplit | undefined {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  let ns = 0;
  let mainNs: number | undefined;
  for (const tid of tids) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8");
    } catch {
      // Gone between the listing and the read, or no schedstat on this kernel.
      if (tids.length === 1) return fallbackSplit(pid);
      continue;
    }
    const runNs = Number(text.slice(0, text.indexOf(" ")));
    if (!Number.isFinite(runNs)) return fallbackSplit(pid);
    ns += runNs;
    if (tid === String(pid)) mainNs = runNs;
  }
  return mainNs === undefined ? { totalUs: ns / 1000 } : { totalUs: ns / 1000, mainUs: mainNs / 1000 };
}

function fallbackSplit(pid: number): CpuSplit | undefined {
  const ms = readCpuTimeMs(pid);
  return ms === undefined ? undefined : { totalUs: ms * 1000 };
}
