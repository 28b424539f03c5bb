import { afterEach, describe, expect, it } from "vitest";
import { hostLogs, spawnFixture, stopAll } from "../helpers/fixtures.js";

afterEach(stopAll);

describe("a plugin that writes deep frames and big ids", () => {
  it("does not crash the host on 5 000-deep frames, and keeps serving", async () => {
    const plugin = await spawnFixture("deep-and-big-id-plugin.mjs");
    // An application listener that logs orphan responses the obvious way: it throws on
    // a 5 000-deep frame, which must cost that frame only.
    const orphans: string[] = [];
    plugin.on("orphanResponse", (frame) => orphans.push(JSON.stringify(frame)));
    await plugin.start();
    const first = await plugin.invoke("deep");
    expect(first.success).toBe(true);
    const second = await plugin.invoke("deep");
    expect(second).toMatchObject({ success: true, data: { ok: true } });
    expect(plugin.running).toBe(true);
    expect(hostLogs.join("\n")).toMatch(/dropped a response without a usable id/);
    expect(hostLogs.join("\n")).toMatch(/dropped a stdout line that could not be handled/);
  });

  it("answers reverse calls with ids above 2^53 with the exact id", async () => {
    const plugin = await spawnFixture("deep-and-big-id-plugin.mjs");
    await plugin.start();
    const result = await plugin.invoke<{ answers: Record<string, string> }>("big_ids");
    expect(result.success).toBe(true);
    const answers = result.data?.answers ?? {};
    for (const id of ["9007199254740993", "18446744073709551616"]) {
      expect(answers[id], JSON.stringify(answers)).toMatch(new RegExp(`"id":${id}[,}]`));
    }
    expect((await plugin.invoke("deep")).success).toBe(true);
  });
});
