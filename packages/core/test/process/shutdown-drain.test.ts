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

const { start } = lifecycleFixture();

const stopTriggers: [string, (p: FixtureProcess) => Promise<unknown> | boolean][] = [
  ["SIGTERM", (p) => p.child.kill("SIGTERM")],
  ["SIGINT", (p) => p.child.kill("SIGINT")],
  ["shutdown", (p) => p.call("shutdown").then((answer) => expect(answer.result).toEqual({}))],
];

describe("stopping while invokes wait on the host", () => {
  for (const [name, trigger] of stopTriggers) {
    it(`${name}: keeps routing the host's replies, so all 5 waiting invokes succeed, then exits 0`, async () => {
      const p = await start();
      const keys = ["a", "b", "c", "d", "e"];
      const answers = keys.map((key) => p.call("invoke", invoke("stored", { key })));
      const calls = await reverseCallsArrived(p, "storage/get", 5);
      await trigger(p);
      await sleep(200); // the host's latency
      answerStorageGets(p, calls);
      const results = await Promise.all(answers);
      expect(results.map((r) => r.error)).toEqual(keys.map(() => undefined));
      expect(results.map((r) => (r.result?.data as { value?: string } | undefined)?.value)).toEqual(
        keys.map((k) => `v-${k}`),
      );
      expect(await p.exited).toEqual({ code: 0, signal: null });
    });
  }

  it("refuses an invoke that arrives during the drain with -32099 and still finishes the waiting one", async () => {
    const p = await start();
    const waiting = p.call("invoke", invoke("stored", { key: "k" }));
    const calls = await reverseCallsArrived(p, "storage/get", 1);
    p.child.kill("SIGTERM");
    await until("the server to take the SIGTERM", () => p.stderr().includes("SIGTERM received"), p);
    const late = await p.call("invoke", invoke("mark", { tag: "late" }));
    expect(late.error).toMatchObject({ code: -32099 });
    expect(fixtureLines(p)).not.toContain("mark late");
    answerStorageGets(p, calls);
    expect((await waiting).result).toMatchObject({ success: true, data: { value: "v-k" } });
    expect(await p.exited).toEqual({ code: 0, signal: null });
  });

  it("answers -32099 after the grace when the host never replies, and exits 0", async () => {
    const p = await start({ FIXTURE_GRACE_MS: "300" });
    const waiting = p.call("invoke", invoke("stored", { key: "k" }));
    await reverseCallsArrived(p, "storage/get", 1);
    p.child.kill("SIGTERM");
    expect((await waiting).error).toMatchObject({ code: -32099 });
    expect(await p.exited).toEqual({ code: 0, signal: null });
  });

  it("stdin EOF fails the waiting reverse calls at once (no reply can come) and exits 0", async () => {
    const p = await start({ FIXTURE_GRACE_MS: "3000" });
    const waiting = p.call("invoke", invoke("stored", { key: "k" }));
    await reverseCallsArrived(p, "storage/get", 1);
    const closedAt = Date.now();
    p.child.stdin.end();
    const answer = await waiting;
    expect(answer.error).toMatchObject({ code: -32603 });
    expect(answer.error?.message).toMatch(/stdin/);
    expect(Date.now() - closedAt).toBeLessThan(2500);
    expect(await p.exited).toEqual({ code: 0, signal: null });
  });

  it("a stop that comes first, then stdin EOF, fails the waiting reverse calls at once", async () => {
    const p = await start({ FIXTURE_GRACE_MS: "3000" });
    const waiting = p.call("invoke", invoke("stored", { key: "k" }));
    await reverseCallsArrived(p, "storage/get", 1);
    p.child.kill("SIGTERM");
    await until("the server to take the SIGTERM", () => p.stderr().includes("SIGTERM received"), p);
    const closedAt = Date.now();
    p.child.stdin.end();
    const answer = await waiting;
    expect(answer.error?.message).toMatch(/stdin/);
    expect(Date.now() - closedAt).toBeLessThan(2500);
    expect(await p.exited).toEqual({ code: 0, signal: null });
  });
});
