import { describe, expect, it } from "vitest";
import { InvokeRun } from "../../src/server/invoke-run.js";

describe("InvokeRun", () => {
  it("answers once: the first outcome wins and finishes the run", () => {
    const outcomes: string[] = [];
    let finished = 0;
    const run = new InvokeRun(
      "t",
      () => finished++,
      () => outcomes.push("resolved"),
      () => outcomes.push("rejected"),
    );
    run.fail(new Error("timeout"), true);
    run.succeed({ success: true });
    expect(outcomes).toEqual(["rejected"]);
    expect(finished).toBe(1);
  });

  it("makes its signal on first use, already aborted when the run was cut short before", () => {
    const run = new InvokeRun(
      "t",
      () => {},
      () => {},
      () => {},
    );
    const reason = new Error("deadline");
    run.fail(reason, true);
    expect(run.signal.aborted).toBe(true);
    expect(run.signal.reason).toBe(reason);
  });

  it("aborts a signal read earlier, and not on a plain failure", () => {
    const aborted = new InvokeRun(
      "t",
      () => {},
      () => {},
      () => {},
    );
    const early = aborted.signal;
    aborted.fail(new Error("stop"), true);
    expect(early.aborted).toBe(true);
    const failed = new InvokeRun(
      "t",
      () => {},
      () => {},
      () => {},
    );
    failed.fail(new Error("tool threw"));
    expect(failed.signal.aborted).toBe(false);
  });
});
