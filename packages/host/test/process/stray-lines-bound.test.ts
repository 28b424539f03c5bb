import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { LineStream, MAX_KEPT_LINE_CHARS, MAX_KEPT_TOTAL_CHARS } from "../../src/process/line-stream.js";
import { spawnFixture, stopAll } from "../helpers/fixtures.js";

const MiB = 1024 * 1024;

/** A full garbage collection, so RSS shows what is retained rather than what awaits collection. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

afterEach(stopAll);

describe("non-protocol stdout lines the host keeps for debugging", () => {
  it("stay bounded in bytes after 40 lines of 15 MiB, and the host keeps working", async () => {
    const plugin = await spawnFixture("long-debug-lines-plugin.mjs");
    await plugin.describe();
    collectGarbage();
    const before = process.memoryUsage().rss;

    const flood = await plugin.invoke("flood", { lines: 40, mib: 15 }, { timeoutMs: 120_000 });
    expect(flood).toEqual({ success: true, data: { printed: 40 } });

    const kept = plugin.stdoutDebug.recent;
    const keptChars = kept.reduce((sum, line) => sum + line.length, 0);
    expect(kept.length).toBeGreaterThan(0);
    expect(keptChars).toBeLessThanOrEqual(MAX_KEPT_TOTAL_CHARS);
    for (const line of kept) {
      expect(line.length).toBeLessThan(MAX_KEPT_LINE_CHARS + 64);
      expect(line).toMatch(new RegExp(`^d{${MAX_KEPT_LINE_CHARS}}… \\[truncated, ${15 * MiB} chars\\]$`));
    }

    collectGarbage();
    const grownMiB = (process.memoryUsage().rss - before) / MiB;
    // Keeping the lines whole retains 600 MiB; bounded, what stays is noise.
    expect(grownMiB).toBeLessThan(300);

    expect(await plugin.invoke("echo", { still: "working" })).toEqual({
      success: true,
      data: { still: "working" },
    });
  }, 180_000);
});

describe("LineStream.recent", () => {
  it("keeps short lines whole, at most `keep` of them", () => {
    const stream = new LineStream(3);
    for (const line of ["a", "b", "c", "d"]) stream.push(line);
    expect(stream.recent).toEqual(["b", "c", "d"]);
  });

  it("cuts long lines, notes their length, bounds the total, and still hands listeners whole lines", () => {
    const stream = new LineStream();
    const heard: number[] = [];
    stream.onLine((line) => heard.push(line.length));
    const long = `${"a".repeat(MAX_KEPT_LINE_CHARS - 1)}\u{1F600}${"b".repeat(5000)}`;
    for (let i = 0; i < 150; i++) stream.push(long);
    expect(heard).toEqual(Array(150).fill(long.length));
    const kept = stream.recent;
    expect(kept.reduce((sum, line) => sum + line.length, 0)).toBeLessThanOrEqual(MAX_KEPT_TOTAL_CHARS);
    expect(kept.length).toBeGreaterThan(40);
    // The cut does not split the surrogate pair at the boundary.
    expect(kept.at(-1)).toBe(`${"a".repeat(MAX_KEPT_LINE_CHARS - 1)}… [truncated, ${long.length} chars]`);
  });
});
