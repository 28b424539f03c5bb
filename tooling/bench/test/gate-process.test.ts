import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { burstCpuParts, decide, type GateBudget, pairedRatios } from "../src/gate/decide.js";
import { measurePairs } from "../src/gate/measure.js";
import { benchPaths } from "../src/subjects.js";

const baseline = { command: process.execPath, args: [join(benchPaths().benchDir, "baseline", "plugin.cjs")] };

describe("the gate on real processes", () => {
  it("pairs fresh processes and judges their ratios against a budget", async () => {
    const pairs = await measurePairs(
      { subject: { name: "baseline twin", line: baseline }, baseline: { name: "baseline", line: baseline } },
      // Long enough to span scheduler ticks: a thread's CPU time is brought up to date at a
      // tick or when it leaves the CPU, so a burst of a millisecond or two can read 0 µs.
      { runs: 2, burstCalls: 5_000, deadlineMs: 60_000, minRuns: 2 },
    );
    expect(pairs).toHaveLength(2);
    const ratios = pairedRatios(pairs);
    expect(ratios.first_invoke).toBeGreaterThan(0);
    if (process.platform !== "linux") return;
    // Each run tells its main thread's CPU apart from the runtime's other threads.
    const parts = burstCpuParts(pairs);
    expect(parts?.subject.mainThreadUs).toBeGreaterThan(0);
    expect(parts?.baseline.mainThreadUs).toBeLessThanOrEqual(parts!.baseline.allThreadsUs);
    const limits = (value: number): GateBudget => {
      const entry = { budget: value, band: 0, calibration: [value] };
      return {
        measured: [],
        ratios: { first_invoke: entry, first_burst_cpu: entry, first_burst_peak_rss: entry },
      };
    };
    expect(decide(limits(1000), ratios).passed).toBe(true);
    const strict = decide(limits(0.001), ratios);
    expect(strict.passed).toBe(false);
    expect(strict.ratios.every((r) => r.verdict === "fail")).toBe(true);
  });
});
