import { afterEach, describe, expect, it } from "vitest";
import { type FixtureProcess, invoke, spawnFixture } from "../helpers/spawn-fixture.js";

let plugin: FixtureProcess;
afterEach(() => {
  plugin?.child.kill("SIGKILL");
});

const ready = async (p: FixtureProcess) => expect((await p.call("describe")).result).toBeDefined();

describe("lifecycle over real pipes", () => {
  it("exits 0 on stdin EOF after answering the invokes in flight", async () => {
    plugin = spawnFixture();
    await ready(plugin);
    const inFlight = [
      plugin.call("invoke", invoke("sleep", { ms: 200 })),
      plugin.call("invoke", invoke("echo")),
    ];
    plugin.child.stdin.end();
    const answers = await Promise.all(inFlight);
    expect(answers.map((a) => a.result?.success)).toEqual([true, true]);
    expect(await plugin.exited).toEqual({ code: 0, signal: null });
  });

  it("exits 0 on SIGTERM with every in-flight invoke answered", async () => {
    plugin = spawnFixture();
    await ready(plugin);
    const inFlight = [1, 2, 3].map(() => plugin.call("invoke", invoke("sleep", { ms: 300 })));
    // Requests are read in order and health is never queued: once it answers, the
    // invokes before it are running (or queued), with no guess at how long that takes.
    await plugin.call("health");
    plugin.child.kill("SIGTERM");
    const answers = await Promise.all(inFlight);
    expect(answers.every((a) => a.result?.success === true)).toBe(true);
    expect(await plugin.exited).toEqual({ code: 0, signal: null });
  });

  it("answers invokes still running after the grace period with -32099, then exits 0", async () => {
    plugin = spawnFixture({ FIXTURE_GRACE_MS: "200" });
    await ready(plugin);
    const hung = plugin.call("invoke", invoke("hang"));
    const shortSleep = plugin.call("invoke", invoke("sleep", { ms: 50 }));
    await plugin.call("health");
    plugin.child.kill("SIGTERM");
    expect((await hung).error).toMatchObject({ code: -32099 });
    expect((await shortSleep).result).toMatchObject({ success: true });
    expect(await plugin.exited).toEqual({ code: 0, signal: null });
  });

  it("answers queued invokes with -32099 at once when stopping", async () => {
    plugin = spawnFixture({ FIXTURE_CONCURRENCY: "1", FIXTURE_GRACE_MS: "3000" });
    await ready(plugin);
    const running = plugin.call("invoke", invoke("sleep", { ms: 400 }));
    const queued = plugin.call("invoke", invoke("sleep", { ms: 400 }));
    await plugin.call("health");
    plugin.child.kill("SIGTERM");
    const first = await Promise.race([queued.then(() => "queued"), running.then(() => "running")]);
    expect(first).toBe("queued");
    expect((await queued).error).toMatchObject({ code: -32099 });
    expect((await running).result).toMatchObject({ success: true });
    expect((await plugin.exited).code).toBe(0);
  });

  it("answers shutdown with {} and exits 0", async () => {
    plugin = spawnFixture();
    const answer = await plugin.call("shutdown");
    expect(answer.result).toEqual({});
    expect(await plugin.exited).toEqual({ code: 0, signal: null });
  });

  it("exits 0 quietly when stdout is closed (EPIPE), without a stack or a busy loop", async () => {
    plugin = spawnFixture();
    await ready(plugin);
    plugin.child.stdout.destroy();
    for (let i = 0; i < 20; i++)
      plugin.send({ jsonrpc: "2.0", id: `e${i}`, method: "invoke", params: invoke("big", { n: 70_000 }) });
    const exit = await plugin.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(plugin.stderr()).not.toMatch(/EPIPE[\s\S]*\n\s+at /);
  });
});
