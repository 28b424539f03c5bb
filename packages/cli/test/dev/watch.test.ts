import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { watchSources } from "../../src/dev/watch.js";

const dir = mkdtempSync(join(tmpdir(), "executa-watch-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "src", "deep"), { recursive: true });
mkdirSync(join(dir, "node_modules"));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("watchSources", () => {
  it("reports a burst of changes once, after the debounce, and ignores node_modules and editor files", async () => {
    const batches: string[][] = [];
    const stop = watchSources([dir], (paths) => batches.push(paths), { debounceMs: 200 });
    try {
      // The recursive watch arms asynchronously: touch a probe until its batch arrives
      // (more slowly than the debounce, so that each touch makes a batch of its own).
      const probe = join(dir, "src", "deep", "probe.ts");
      await vi.waitFor(
        () => {
          if (batches.length > 0) return;
          writeFileSync(probe, String(Date.now()));
          throw new Error("the watcher has not reported the probe file yet");
        },
        { timeout: 20_000, interval: 500 },
      );
      batches.length = 0;
      writeFileSync(join(dir, "node_modules", "x.js"), "1");
      writeFileSync(join(dir, "src", ".main.ts.swp"), "1");
      writeFileSync(join(dir, "src", "main.ts~"), "1");
      writeFileSync(join(dir, "src", "main.ts"), "1");
      writeFileSync(join(dir, "src", "deep", "util.ts"), "1");
      writeFileSync(join(dir, "src", "main.ts"), "2");
      await vi.waitFor(() => expect(batches).not.toEqual([]), { timeout: 20_000 });
      expect(batches[0]).toEqual(
        expect.arrayContaining([join(dir, "src", "main.ts"), join(dir, "src", "deep", "util.ts")]),
      );
      expect(batches[0]!.filter((path) => /node_modules|\.swp$|~$/.test(path))).toEqual([]);
      // Nothing more comes of that burst: the point of the debounce, so a fixed wait.
      await sleep(600);
      expect(batches).toHaveLength(1);
    } finally {
      stop();
    }
    writeFileSync(join(dir, "src", "main.ts"), "3");
    await sleep(400);
    expect(batches).toHaveLength(1);
  });
});
