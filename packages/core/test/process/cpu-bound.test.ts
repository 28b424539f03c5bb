import { describe, expect, it } from "vitest";
import { fixtureLines, lifecycleFixture, until } from "../helpers/lifecycle.js";
import { type FixtureProcess, type Frame, invoke } from "../helpers/spawn-fixture.js";

const { start } = lifecycleFixture();

/** Sends n burn invokes in one write, as a busy host would; returns their ids. */
function sendBurns(p: FixtureProcess, n: number, ms: number): string[] {
  const ids = Array.from({ length: n }, (_, i) => `burn-${i}`);
  p.child.stdin.write(
    ids
      .map((id) => JSON.stringify({ jsonrpc: "2.0", id, method: "invoke", params: invoke("burn", { ms }) }))
      .join("\n")
      .concat("\n"),
  );
  return ids;
}

const indexOfReply = (p: FixtureProcess, id: unknown) =>
  p.frames.findIndex((f: Frame) => f.id === id && f.method === undefined);

describe("CPU-bound handlers", () => {
  it("health is answered between CPU-bound invokes, before all of them finish", async () => {
    const p = await start();
    const ids = sendBurns(p, 8, 300);
    await until("the first burn to start", () => fixtureLines(p).some((l) => l.startsWith("burn start")), p);
    p.send({ jsonrpc: "2.0", id: "health-1", method: "health" });
    const health = await p.reply("health-1", 15_000);
    expect(health.result).toMatchObject({ status: "ready" });
    const answers = await Promise.all(ids.map((id) => p.reply(id, 15_000)));
    expect(answers.every((a) => a.result?.success === true)).toBe(true);
    const healthAt = indexOfReply(p, "health-1");
    const lastBurnAt = Math.max(...ids.map((id) => indexOfReply(p, id)));
    expect(healthAt).toBeLessThan(lastBurnAt);
  });

  it("SIGTERM between CPU-bound invokes answers the queued ones -32099 at once and exits 0", async () => {
    const p = await start();
    const ids = sendBurns(p, 8, 300);
    await until("the first burn to start", () => fixtureLines(p).some((l) => l.startsWith("burn start")), p);
    p.child.kill("SIGTERM");
    const answers = await Promise.all(ids.map((id) => p.reply(id, 15_000)));
    expect(await p.exited).toEqual({ code: 0, signal: null });
    const ran = answers.filter((a) => a.result?.success === true).length;
    const refused = answers.filter((a) => a.error?.code === -32099).length;
    expect(ran + refused).toBe(8);
    expect(ran).toBeGreaterThanOrEqual(1);
    expect(refused).toBeGreaterThanOrEqual(4);
    const starts = () => fixtureLines(p).filter((l) => l.startsWith("burn start")).length;
    await until("the burn markers on stderr", () => starts() >= ran, p);
    expect(starts()).toBe(ran);
  });
});
