import { describe, expect, it } from "vitest";
import { readCpuSplitUs } from "../src/proc-status.js";

describe.runIf(process.platform === "linux")("a process's CPU time read from /proc", () => {
  it("counts every thread and tells the main thread's share apart", () => {
    const before = readCpuSplitUs(process.pid);
    // Enough work on this (the main) thread to span a few scheduler ticks.
    const until = performance.now() + 50;
    let spins = 0;
    while (performance.now() < until) spins++;
    const after = readCpuSplitUs(process.pid);
    expect(spins).toBeGreaterThan(0);
    expect(before?.mainUs).toBeDefined();
    expect(after?.mainUs).toBeDefined();
    expect(after!.mainUs! - before!.mainUs!).toBeGreaterThan(0);
    expect(after!.mainUs!).toBeLessThanOrEqual(after!.totalUs);
    expect(after!.totalUs).toBeGreaterThan(before!.totalUs);
  });

  it("is undefined for a process that does not exist", () => {
    expect(readCpuSplitUs(2 ** 22 + 1)).toBeUndefined();
  });
});
