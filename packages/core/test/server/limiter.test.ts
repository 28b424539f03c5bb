import { describe, expect, it } from "vitest";
import { ConcurrencyLimiter } from "../../src/server/limiter.js";
import { turn } from "../helpers/turns.js";

describe("ConcurrencyLimiter", () => {
  it("runs at most `limit` tasks and starts waiting ones in arrival order as slots free", () => {
    const limiter = new ConcurrencyLimiter(2);
    const started: number[] = [];
    for (let i = 0; i < 4; i++) limiter.acquire(() => started.push(i));
    expect(started).toEqual([0, 1]);
    limiter.release();
    expect(started).toEqual([0, 1, 2]);
    limiter.release();
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it("skips a withdrawn task", () => {
    const limiter = new ConcurrencyLimiter(1);
    const started: string[] = [];
    limiter.acquire(() => started.push("a"));
    const withdraw = limiter.acquire(() => started.push("b"));
    limiter.acquire(() => started.push("c"));
    withdraw();
    limiter.release();
    expect(started).toEqual(["a", "c"]);
  });

  it("fills free slots in a later turn while the current turn must yield", async () => {
    let busy = true;
    const limiter = new ConcurrencyLimiter(4, () => busy);
    const started: string[] = [];
    expect(limiter.tryAcquire()).toBe(false);
    limiter.acquire(() => started.push("a"));
    limiter.acquire(() => started.push("b"));
    expect(started).toEqual([]);
    expect(limiter.queued).toBe(2);
    busy = false;
    await turn();
    expect(started).toEqual(["a", "b"]);
    expect(limiter.active).toBe(2);
  });

  it("starts one task per turn when each one makes the turn busy", async () => {
    let busy = false;
    const limiter = new ConcurrencyLimiter(8, () => busy);
    const started: number[] = [];
    busy = true;
    for (let i = 0; i < 3; i++)
      limiter.acquire(() => {
        started.push(i);
        busy = true; // a CPU-bound task spends the turn's budget
      });
    for (let round = 1; round <= 3; round++) {
      busy = false;
      await turn();
      expect(started).toHaveLength(round);
    }
  });
});
