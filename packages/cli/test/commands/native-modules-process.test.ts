import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, fixture, requireBuiltCli, runProcess } from "../helpers/cli.js";

beforeAll(requireBuiltCli);

/** Runs the built CLI with the load tracer preloaded; returns what it loaded. */
async function nativeLoadsOf(args: readonly string[], cwd: string) {
  const run = await runProcess(
    process.execPath,
    ["--require", fixture("native-load-trace.cjs"), CLI, ...args],
    {
      cwd,
    },
  );
  const line = run.stderr.split("\n").find((text) => text.startsWith("NATIVE "));
  expect(line, run.stderr).toBeDefined();
  return { run, loaded: JSON.parse(line!.slice("NATIVE ".length)) as { addons: string[]; sqlite: string[] } };
}

describe("native modules the CLI loads", () => {
  it("executa check loads no native module (the local providers come only with dev)", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "cli-native-"));
    try {
      const { run, loaded } = await nativeLoadsOf(
        ["check", "--json", "--", process.execPath, fixture("good-plugin.mjs")],
        cwd,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(loaded).toEqual({ addons: [], sqlite: [] });
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it("executa dev opens its local storage without any native addon (SQLite in WebAssembly)", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "cli-native-"));
    try {
      const { run, loaded } = await nativeLoadsOf(
        ["dev", "--describe", "--", process.execPath, fixture("good-plugin.mjs")],
        cwd,
      );
      expect(run.code, run.stderr).toBe(0);
      // The control: the tracer sees the storage's SQLite, and no addon came with it.
      expect(loaded.sqlite.length).toBeGreaterThan(0);
      expect(loaded.addons).toEqual([]);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
