import { describe, expect, it } from "vitest";
import { fixtureLines, lifecycleFixture, until } from "../helpers/lifecycle.js";
import { type FixtureProcess, invoke } from "../helpers/spawn-fixture.js";

const { start } = lifecycleFixture();

/** Marks once more and checks that this later mark is the only one the tool ever made. */
async function expectOnlyTheLaterMarkRan(p: FixtureProcess): Promise<void> {
  expect((await p.call("invoke", invoke("mark", { tag: "after" }))).result).toMatchObject({
    success: true,
  });
  await until("the after marker", () => fixtureLines(p).includes("mark after"), p);
  expect(fixtureLines(p).filter((l) => l.startsWith("mark"))).toEqual(["mark after"]);
}

describe("deadlines that pass before the tool starts", () => {
  it("an invoke whose deadline_ms is already past is answered -32000 without running the tool", async () => {
    const p = await start();
    const answer = await p.call(
      "invoke",
      invoke("mark", { tag: "late" }, { deadline_ms: Date.now() - 1000 }),
    );
    expect(answer.error).toMatchObject({ code: -32000, data: { tool: "mark" } });
    expect(answer.error?.message).toMatch(/deadline/);
    // Still serving, and the tool never ran.
    const next = await p.call("invoke", invoke("mark", { tag: "next" }));
    expect(next.result).toMatchObject({ success: true });
    // stderr is another pipe: wait for the later marker before reading what ran.
    await until("the next marker", () => fixtureLines(p).includes("mark next"), p);
    expect(fixtureLines(p)).toEqual(["mark next"]);
  });

  it("a queued invoke whose deadline passes while it waits for a slot is answered -32000 and never run", async () => {
    const p = await start({ FIXTURE_CONCURRENCY: "1" });
    // The running invoke holds the only slot and the CPU past the queued one's deadline.
    const running = p.call("invoke", invoke("burn", { ms: 600 }));
    const queued = p.call("invoke", invoke("mark", { tag: "queued" }, { deadline_ms: Date.now() + 200 }));
    expect((await queued).error).toMatchObject({ code: -32000 });
    expect((await running).result).toMatchObject({ success: true });
    await expectOnlyTheLaterMarkRan(p);
  });

  it("a queued invoke whose deadline passes while the CPU is held, before its timer had a turn, is answered -32000 and never run", async () => {
    const p = await start({ FIXTURE_CONCURRENCY: "1" });
    // The running invoke returns a promise, then holds the CPU from a timer past the queued
    // one's deadline; its slot frees before the queued one's deadline timer can fire.
    const running = p.call("invoke", invoke("burn", { ms: 600, after_ms: 100 }));
    const queued = p.call("invoke", invoke("mark", { tag: "queued" }, { deadline_ms: Date.now() + 300 }));
    expect((await queued).error).toMatchObject({ code: -32000 });
    expect((await running).result).toMatchObject({ success: true });
    await expectOnlyTheLaterMarkRan(p);
  });

  it("a queued invoke whose deadline passes while another waits on a timer is answered -32000 and never run", async () => {
    const p = await start({ FIXTURE_CONCURRENCY: "1" });
    const running = p.call("invoke", invoke("stored", { key: "k" }));
    const queued = p.call("invoke", invoke("mark", { tag: "queued" }, { deadline_ms: Date.now() + 150 }));
    expect((await queued).error).toMatchObject({ code: -32000 });
    p.child.stdin.end();
    await running;
    await p.exited; // all of stderr has been written
    expect(fixtureLines(p).filter((l) => l.startsWith("mark"))).toEqual([]);
  });
});
