import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
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
      await sleep(100);
      writeFileSync(join(dir, "node_modules", "x.js"), "1");
      writeFileSync(join(dir, "src", ".main.ts.swp"), "1");
      writeFileSync(join(dir, "src", "main.ts~"), "1");
      await sleep(400);
      expect(batches).toEqual([]);
      writeFileSync(join(dir, "src", "main.ts"), "1");
      writeFileSync(join(dir, "src", "deep", "util.ts"), "1");
      writeFileSync(join(dir, "src", "main.ts"), "2");
      await sleep(700);
      expect(batches).toHaveLength(1);
      expect(batches[0]).toEqual(
        expect.arrayContaining([join(dir, "src", "main.ts"), join(dir, "src", "deep", "util.ts")]),
      );
    } finally {
      stop();
    }
    writeFileSync(join(dir, "src", "main.ts"), "3");
    await sleep(400);
    expect(batches).toHaveLength(1);
  });
});
