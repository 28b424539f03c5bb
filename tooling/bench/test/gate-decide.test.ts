import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { detectRuntime } from "../src/gate/binary.js";
import {
  budgetFor,
  burstCpuParts,
  calibrateRatio,
  decide,
  formatBudget,
  type GateBudget,
  type GateBudgetFile,
  type GateCalibration,
  type GatePair,
  MIN_BAND,
  pairedRatios,
  parseBudget,
  parseBudgetFile,
  type RatioMedians,
  renderBurstCpuParts,
  renderVerdict,
  withCalibration,
} from "../src/gate/decide.js";
import { cpuOf, thisMachine } from "../src/gate/machine.js";

const COMMITTED_BUDGET = fileURLToPath(new URL("../gate/budget.json", import.meta.url));

function budget(values: Partial<Record<keyof GateBudget["ratios"], [number, number]>> = {}): GateBudget {
  const entry = ([value, band]: [number, number]) => ({ budget: value, band });
  return {
    measured: [calibration("test", {})],
    ratios: {
      first_invoke: entry(values.first_invoke ?? [1, 0.1]),
      first_burst_cpu: entry(values.first_burst_cpu ?? [1, 0.1]),
      first_burst_peak_rss: entry(values.first_burst_peak_rss ?? [1, 0.1]),
    },
  };
}

function calibration(
  machine: string,
  quiet: Partial<RatioMedians>,
  loaded: Partial<RatioMedians> = {},
): GateCalibration {
  const medians = (given: Partial<RatioMedians>): RatioMedians => ({
    first_invoke: given.first_invoke ?? [],
    first_burst_cpu: given.first_burst_cpu ?? [],
    first_burst_peak_rss: given.first_burst_peak_rss ?? [],
  });
  return {
    commit: "abc1234",
    at: "2026-12-05T08:00:00.000Z",
    binary: "toolbox",
    machine,
    runs: 1,
    calibrations: 1,
    burstCalls: 1,
    quiet: medians(quiet),
    loaded: medians(loaded),
  };
}

const run = (firstInvokeMs: number, cpuPerInvokeUs?: number, peakRssBytes?: number) => ({
  firstInvokeMs,
  ...(cpuPerInvokeUs === undefined ? {} : { cpuPerInvokeUs }),
  ...(peakRssBytes === undefined ? {} : { peakRssBytes }),
});

describe("the gate's ratios", () => {
  it("are the median over the pairs of subject ÷ the baseline run beside it", () => {
    const pairs: GatePair[] = [
      { subject: run(20, 30, 100), baseline: run(10, 10, 100) }, // 2, 3, 1
      { subject: run(60, 10, 300), baseline: run(20, 10, 100) }, // 3, 1, 3
      { subject: run(10, 20, 200), baseline: run(100, 10, 100) }, // 0.1, 2, 2
    ];
    expect(pairedRatios(pairs)).toEqual({ first_invoke: 2, first_burst_cpu: 2, first_burst_peak_rss: 2 });
  });

  it("leave out what no pair could measure (no procfs)", () => {
    expect(pairedRatios([{ subject: run(20), baseline: run(10) }])).toEqual({ first_invoke: 2 });
  });
});

describe("the first burst's CPU split by thread", () => {
  const split = (all: number, main?: number) => ({
    firstInvokeMs: 1,
    cpuPerInvokeUs: all,
    ...(main === undefined ? {} : { mainThreadCpuPerInvokeUs: main }),
  });

  it("gives each side's medians of all threads, the main thread and the other threads", () => {
    const pairs: GatePair[] = [
      { subject: split(10, 4), baseline: split(7, 5) }, // other threads 6 and 2
      { subject: split(12, 5), baseline: split(6, 4) }, // 7 and 2
      { subject: split(9, 5), baseline: split(8, 5) }, // 4 and 3
    ];
    const parts = burstCpuParts(pairs);
    expect(parts).toEqual({
      subject: { allThreadsUs: 10, mainThreadUs: 5, otherThreadsUs: 6 },
      baseline: { allThreadsUs: 7, mainThreadUs: 5, otherThreadsUs: 2 },
    });
    expect(renderBurstCpuParts(parts!)).toBe(
      "first burst CPU µs per invoke, medians: binary 10.00 (main thread 5.00, other threads 6.00), baseline 7.00 (main thread 5.00, other threads 2.00)",
    );
  });

  it("uses only the pairs whose both runs could tell the main thread apart, and none when no pair could", () => {
    const told = { subject: split(10, 4), baseline: split(8, 6) };
    const untold = { subject: split(30), baseline: split(8, 6) };
    expect(burstCpuParts([told, untold])?.subject).toEqual({
      allThreadsUs: 10,
      mainThreadUs: 4,
      otherThreadsUs: 6,
    });
    expect(burstCpuParts([untold])).toBeUndefined();
  });
});

describe("the gate's verdict", () => {
  it("passes up to budget × (1 + band) and fails above it", () => {
    const limits = budget({
      first_invoke: [0.5, 0.2],
      first_burst_cpu: [1.1, 0.25],
      first_burst_peak_rss: [0.8, 0.1],
    });
    const atLimit = decide(limits, { first_invoke: 0.6, first_burst_cpu: 1.375, first_burst_peak_rss: 0.88 });
    expect(atLimit.passed).toBe(true);
    expect(atLimit.ratios.map((r) => r.verdict)).toEqual(["pass", "pass", "pass"]);
    const over = decide(limits, { first_invoke: 0.6, first_burst_cpu: 1.4, first_burst_peak_rss: 0.88 });
    expect(over.passed).toBe(false);
    expect(over.ratios.find((r) => r.ratio === "first_burst_cpu")).toMatchObject({
      verdict: "fail",
      limit: 1.375,
    });
  });

  it("fails a ratio it could not measure", () => {
    const verdict = decide(budget(), { first_invoke: 1 });
    expect(verdict.passed).toBe(false);
    expect(verdict.ratios.map((r) => r.verdict)).toEqual(["pass", "not measured", "not measured"]);
    expect(renderVerdict(verdict)).toContain("/proc");
  });

  it("prints each ratio's measure, budget, band, limit and verdict, and what to do on a failure", () => {
    const failed = renderVerdict(
      decide(budget(), { first_invoke: 1, first_burst_cpu: 4.5, first_burst_peak_rss: 1 }),
    );
    expect(failed).toMatch(
      /first burst: CPU per invoke \(first_burst_cpu\)\s+4\.500\s+1\.000\s+±10 %\s+1\.100\s+FAIL/,
    );
    expect(failed).toContain("GATE_REGRESSION: first_burst_cpu");
    expect(failed).toContain("--calibrate");
    const passed = renderVerdict(
      decide(budget(), { first_invoke: 1, first_burst_cpu: 1, first_burst_peak_rss: 1 }),
    );
    expect(passed).not.toContain("GATE_REGRESSION");
  });
});

describe("calibration", () => {
  it("takes the median of the calibration medians as the budget and twice their spread as the band", () => {
    expect(calibrateRatio([1.0, 1.2, 0.9, 1.1, 1.05])).toEqual({
      budget: 1.05,
      band: 0.286, // 2 × |0.9 − 1.05| / 1.05
    });
  });

  it("widens the band to cover the medians measured with every core busy", () => {
    expect(calibrateRatio([1, 1.01, 0.99], [1.1, 1.12])).toEqual({
      budget: 1,
      band: 0.24, // 2 × (1.12 − 1) / 1
    });
  });

  it("never sets a band below the floor", () => {
    expect(calibrateRatio([1, 1.01, 0.99]).band).toBe(MIN_BAND);
  });

  it("pools the machines a budget was calibrated on, and a machine calibrated again replaces its own medians", () => {
    const amd = calibration("AMD", {
      first_invoke: [0.43, 0.42, 0.44],
      first_burst_cpu: [1, 1, 1],
      first_burst_peak_rss: [1],
    });
    const intel = calibration("Intel", {
      first_invoke: [0.21, 0.22, 0.2],
      first_burst_cpu: [1.1, 1.1, 1.1],
      first_burst_peak_rss: [1],
    });
    const both = withCalibration(withCalibration(undefined, amd), intel);
    expect(both.measured.map((m) => m.machine)).toEqual(["AMD", "Intel"]);
    expect(both.ratios.first_invoke).toEqual(calibrateRatio([0.43, 0.42, 0.44, 0.21, 0.22, 0.2]));
    expect(both.ratios.first_burst_cpu.budget).toBe(1.05);
    const intelAgain = calibration("Intel", {
      first_invoke: [0.3],
      first_burst_cpu: [1],
      first_burst_peak_rss: [1],
    });
    const replaced = withCalibration(both, intelAgain);
    expect(replaced.measured).toEqual([amd, intelAgain]);
    expect(replaced.ratios.first_invoke).toEqual(calibrateRatio([0.43, 0.42, 0.44, 0.3]));
  });
});

describe("the budget file", () => {
  it("holds the budgets its own calibrations give (gate/budget.json)", () => {
    const file = parseBudgetFile(JSON.parse(readFileSync(COMMITTED_BUDGET, "utf8")), COMMITTED_BUDGET);
    for (const committed of Object.values(file.budgets)) {
      const derived = committed.measured.reduce<GateBudget | undefined>(withCalibration, undefined);
      expect(derived?.ratios).toEqual(committed.ratios);
    }
  });

  it("is read back as written", () => {
    expect(parseBudget(JSON.parse(JSON.stringify(budget())), "budget.json")).toEqual(budget());
  });

  it("is refused with the fix when a ratio is missing or wrong", () => {
    const broken = budget() as unknown as { ratios: Record<string, unknown> };
    delete broken.ratios.first_burst_cpu;
    expect(() => parseBudget(broken, "budget.json")).toThrow(
      /GATE_BUDGET_INVALID.*first_burst_cpu.*--calibrate/,
    );
    expect(() => parseBudget(null, "budget.json")).toThrow(/GATE_BUDGET_INVALID/);
    const negative = budget({ first_invoke: [-1, 0.1] });
    expect(() => parseBudget(negative, "budget.json")).toThrow(/first_invoke/);
    expect(() => parseBudget({ ...budget(), measured: {} }, "budget.json")).toThrow(/"measured" list/);
  });
});

describe("the runtime of a binary", () => {
  const trailer = Buffer.from("\n---- Bun! ----\n");
  const bun = (entry: string) =>
    Buffer.concat([
      Buffer.from(`ELF... // @bun @bytecode in Bun's own code ...${entry}`),
      trailer,
      Buffer.from("ELF sections"),
    ]);

  it("is Bun when it holds Bun's trailer, with bytecode when the entry point before it is marked so", () => {
    expect(detectRuntime(bun("// @bun @bun-cjs\n(function(exports) {})")).key).toBe("bun");
    expect(detectRuntime(bun("// @bun @bytecode @bun-cjs\n(function(exports) {})"))).toEqual({
      key: "bun-bytecode",
      runtime: "bun",
      bytecode: true,
      label: "Bun + bytecode",
    });
  });

  it("is a Node single executable otherwise", () => {
    expect(detectRuntime(Buffer.from("ELF... NODE_SEA_BLOB")).key).toBe("node-sea");
  });
});

describe("the budget file's text", () => {
  it("keeps each list of medians on one line and reads back as written", () => {
    const measured = [calibration("test", { first_invoke: [1.05, 1.1] })];
    const file: GateBudgetFile = {
      comment: "c",
      budgets: { "node-sea": { ...budget({ first_invoke: [1.05, 0.286] }), measured } },
    };
    const text = formatBudget(file);
    expect(text).toContain('"first_invoke": [1.05, 1.1]');
    expect(text.endsWith("}\n")).toBe(true);
    expect(parseBudgetFile(JSON.parse(text), "budget.json")).toEqual(file);
  });
});

describe("the budget of a runtime", () => {
  const file: GateBudgetFile = {
    comment: "c",
    budgets: { "node-sea": budget(), "bun-bytecode": budget({ first_invoke: [0.2, 0.3] }) },
  };

  it("is the one measured on a binary of the same runtime", () => {
    expect(budgetFor(file, "bun-bytecode", "budget.json").ratios.first_invoke.budget).toBe(0.2);
  });

  it("is missing, with the fix, for a runtime never calibrated", () => {
    expect(() => budgetFor(file, "bun", "budget.json")).toThrow(
      /GATE_NO_BUDGET: budget.json has no budget for a bun binary \(it has: node-sea, bun-bytecode\).*--calibrate/,
    );
  });

  it("refuses a file without budgets, or with a broken one", () => {
    expect(() => parseBudgetFile({ comment: "c" }, "budget.json")).toThrow(/GATE_BUDGET_INVALID.*"budgets"/);
    expect(() => parseBudgetFile({ comment: "c", budgets: { bun: {} } }, "budget.json")).toThrow(/\(bun\)/);
  });
});

describe("the machine a calibration names", () => {
  it("reads back the CPU from the name it wrote, and keeps a name of another shape whole", () => {
    expect(cpuOf(thisMachine())).toBe(`${cpus().length} × ${cpus()[0]?.model.trim() ?? "unknown"}`);
    expect(cpuOf("AMD")).toBe("AMD");
  });
});
