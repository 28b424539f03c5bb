import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LIFECYCLE_PLUGIN } from "../helpers/lifecycle.js";
import { type FixtureProcess, invoke, spawnFixture } from "../helpers/spawn-fixture.js";

let plugin: FixtureProcess;
let tmp: string;
afterEach(() => {
  plugin?.child.kill("SIGKILL");
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** The file-transport directories (`executa-XXXXXX`) in `dir`. */
const transportDirs = (dir: string) => readdirSync(dir).filter((name) => /^executa-/.test(name));

describe("the file-transport temp directory", () => {
  it("is not created by a process that never uses file transport", async () => {
    tmp = mkdtempSync(join(tmpdir(), "core-tmpdir-test-"));
    plugin = spawnFixture({ TMPDIR: tmp }, LIFECYCLE_PLUGIN);
    expect((await plugin.call("invoke", invoke("mark", { tag: "x" }))).result).toMatchObject({
      success: true,
    });
    expect(transportDirs(tmp)).toEqual([]);
    plugin.child.kill("SIGTERM");
    expect(await plugin.exited).toEqual({ code: 0, signal: null });
    expect(transportDirs(tmp)).toEqual([]);
  });

  for (const stop of ["SIGTERM", "EOF"] as const) {
    it(`is created on first use and removed at stop (${stop})`, async () => {
      tmp = mkdtempSync(join(tmpdir(), "core-tmpdir-test-"));
      plugin = spawnFixture({ TMPDIR: tmp, FIXTURE_FT_THRESHOLD: "1000" }, LIFECYCLE_PLUGIN);
      const answer = await plugin.call("invoke", invoke("big", { n: 5000 }));
      const path = answer.__file_transport;
      expect(path).toBeTypeOf("string");
      expect(transportDirs(tmp)).toHaveLength(1);
      // The host's part: read the answer, delete the file.
      expect(JSON.parse(readFileSync(path!, "utf8")).result.success).toBe(true);
      unlinkSync(path!);
      if (stop === "SIGTERM") plugin.child.kill("SIGTERM");
      else plugin.child.stdin.end();
      expect(await plugin.exited).toEqual({ code: 0, signal: null });
      expect(transportDirs(tmp)).toEqual([]);
    });
  }

  it("is left in place at stop while it still holds an answer the host has not read", async () => {
    tmp = mkdtempSync(join(tmpdir(), "core-tmpdir-test-"));
    plugin = spawnFixture({ TMPDIR: tmp, FIXTURE_FT_THRESHOLD: "1000" }, LIFECYCLE_PLUGIN);
    const answer = await plugin.call("invoke", invoke("big", { n: 5000 }));
    plugin.child.kill("SIGTERM");
    expect(await plugin.exited).toEqual({ code: 0, signal: null });
    expect(JSON.parse(readFileSync(answer.__file_transport!, "utf8")).result.success).toBe(true);
  });
});
