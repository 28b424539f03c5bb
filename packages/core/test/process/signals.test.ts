import { describe, expect, it } from "vitest";
import {
  answerStorageGets,
  fixtureLines,
  lifecycleFixture,
  reverseCallsArrived,
  sleep,
  until,
} from "../helpers/lifecycle.js";
import { type FixtureProcess, invoke } from "../helpers/spawn-fixture.js";

const { spawn, start } = lifecycleFixture();

const exitWithin = (p: FixtureProcess, ms: number) =>
  Promise.race([p.exited, sleep(ms).then(() => "still running" as const)]);

describe("signals", () => {
  it("repeated SIGTERM, SIGINT and SIGHUP during in-flight work do not kill: every invoke is answered, exit 0", async () => {
    const p = await start();
    const answers = ["a", "b", "c"].map((key) => p.call("invoke", invoke("stored", { key })));
    const calls = await reverseCallsArrived(p, "storage/get", 3);
    for (const signal of ["SIGTERM", "SIGTERM", "SIGINT", "SIGHUP", "SIGTERM"] as const) {
      p.child.kill(signal);
      await sleep(30);
    }
    await sleep(150);
    answerStorageGets(p, calls);
    const results = await Promise.all(answers);
    expect(results.map((r) => r.result?.success)).toEqual([true, true, true]);
    expect(await p.exited).toEqual({ code: 0, signal: null });
  });

  it("SIGHUP stops gracefully: the waiting invoke is answered, exit 0", async () => {
    const p = await start();
    const answer = p.call("invoke", invoke("stored", { key: "h" }));
    const calls = await reverseCallsArrived(p, "storage/get", 1);
    p.child.kill("SIGHUP");
    await sleep(200);
    answerStorageGets(p, calls);
    expect((await answer).result).toMatchObject({ success: true, data: { value: "v-h" } });
    expect(await p.exited).toEqual({ code: 0, signal: null });
  });

  it("a signal the bundle banner recorded before the server existed stops it at once, exit 0", async () => {
    const plugin = spawn({ FIXTURE_EARLY_SIGNALS: "SIGTERM" });
    expect(await exitWithin(plugin, 5000)).toEqual({ code: 0, signal: null });
    await until(
      "the banner's dispose",
      () => fixtureLines(plugin).includes("early-signals disposed"),
      plugin,
    );
  });

  it("takes the process over from the banner when no signal came early: keeps serving, disposes it", async () => {
    const p = await start({ FIXTURE_EARLY_SIGNALS: "" });
    expect((await p.call("invoke", invoke("mark", { tag: "x" }))).result).toMatchObject({ success: true });
    await until("the banner's dispose", () => fixtureLines(p).includes("early-signals disposed"), p);
    p.child.kill("SIGTERM");
    expect(await p.exited).toEqual({ code: 0, signal: null });
  });
});
