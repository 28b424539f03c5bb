import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, requireBuiltCli, runCli } from "../helpers/cli.js";

beforeAll(requireBuiltCli);

const cwd = mkdtempSync(join(tmpdir(), "executa-dev-failures-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const dev = (args: string[], env: NodeJS.ProcessEnv = {}, input?: string) =>
  runCli(["dev", ...args], { cwd, env, input });
const count = (text: string, part: string) => text.split(part).length - 1;

describe("executa dev when the plugin fails (built CLI)", () => {
  it("prints a startup error of the plugin once", async () => {
    const run = await dev([fixture("not-a-plugin.mjs"), "--describe"]);
    expect(run.code).toBe(1);
    expect(count(run.stderr, "the plugin cannot start [NOT_A_PLUGIN]")).toBe(1);
    expect(run.stderr).toMatch(
      /not-a-plugin\.mjs did not start: the plugin exited with code 1 before answering/,
    );
    // The exit is told once too: by the error, not also by an "exited" notice.
    expect(count(run.stderr, "exited with code 1")).toBe(1);
  });

  it("ends a definition error with its Fix: line, also with --quiet", async () => {
    for (const quiet of [[], ["--quiet"]]) {
      const run = await dev([fixture("definition-error.mjs"), "--describe", ...quiet]);
      expect(run.code).toBe(1);
      const lines = run.stderr.trimEnd().split("\n");
      expect(lines.at(-2)).toBe(
        "  executa: the plugin cannot start [NO_TOOLS]: NoTools: the plugin has no tools",
      );
      expect(lines.at(-1)).toBe('    Fix: mark at least one method with @Tool({ description: "…" })');
    }
  });

  it("hints at ToolError when a tool throws a plain Error, and only then", async () => {
    const plain = await dev([fixture("throws-plain-error.mjs"), "--invoke", "lookup"]);
    expect(plain.stderr).toContain('Tool "lookup" failed: city not found');
    expect(plain.stderr).toMatch(/hint: for an expected failure, throw new ToolError\(message\)/);
    const expected = await dev([fixture("good-plugin.mjs"), "--invoke", "fail", "--args", "why=nope"]);
    expect(expected.stdout + expected.stderr).toContain("nope");
    expect(expected.stdout + expected.stderr).not.toContain("hint:");
  });

  it("ends a crash with its error line and the first frame in the author's code, not the tail of the stack", async () => {
    for (const quiet of [[], ["--quiet"]]) {
      const run = await dev([fixture("crashes-on-start.mjs"), "--describe", ...quiet]);
      expect(run.code).toBe(1);
      const lines = run.stderr.trimEnd().split("\n");
      expect(lines.at(-2)).toBe('  TypeError: the config has no "region" ({"nested":{"deep":{"value":1}}})');
      expect(lines.at(-1)).toMatch(/^ {4}at readConfig \(.*crashes-on-start\.mjs:\d+:\d+\)$/);
      expect(run.stderr).not.toContain("Node.js v");
      expect(run.stderr).not.toContain("node:internal");
      expect(count(run.stderr, "TypeError")).toBe(1);
    }
  });

  it("ends a crash during an invoke with its error line and frame too", async () => {
    const run = await dev([fixture("crashes-on-invoke.mjs"), "--invoke", "echo", "--args", "text=a"]);
    expect(run.code).toBe(1);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines.at(-3)).toMatch(/✖ error in \d+ ms: the plugin exited with code 1 before answering$/);
    expect(lines.at(-2)).toBe("  RangeError: the tool ran out of range");
    expect(lines.at(-1)).toMatch(/^ {4}at .*explode.*crashes-on-invoke\.mjs:\d+:\d+\)$/);
    expect(run.stderr).not.toContain("last stderr");
  });

  it("hints at serve() when the entry exits 0 without answering", async () => {
    const run = await dev([fixture("never-serves.mjs"), "--describe"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("exited with code 0 before answering initialize");
    expect(run.stderr).toMatch(
      /the entry \S*never-serves\.mjs must serve the plugin: call serve\(YourClass\) from @executa\/decorators \(or servePlugin\(definition\) from @executa\/core\)/,
    );
  });

  it("drops the late answer of an invoke it timed out without a warning", async () => {
    // The health answer comes after the late invoke answer, so the plugin is still up when it arrives.
    const run = await dev(
      [fixture("answers-late.mjs"), "--timeout", "0.2"],
      { EXECUTA_LOG_LEVEL: "debug", LATE_MS: "800" },
      "echo text=a\n.health\n.exit\n",
    );
    expect(run.code, run.stderr).toBe(0);
    const output = run.stdout + run.stderr;
    expect(output).toContain('Tool "echo" timed out after 200 ms');
    expect(output).toContain("dropped the late response for abandoned id");
    expect(output).not.toContain("unknown id");
  });
});
