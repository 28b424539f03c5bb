import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, requireBuiltCli, runCli } from "../helpers/cli.js";

beforeAll(requireBuiltCli);

const cwd = mkdtempSync(join(tmpdir(), "executa-dev-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const good = fixture("good-plugin.mjs");
const dev = (...args: string[]) => runCli(["dev", ...args], { cwd });

describe("executa dev --describe / --invoke (built CLI)", () => {
  it("--describe prints the manifest as JSON", async () => {
    const run = await dev(good, "--describe");
    expect(run.code, run.stderr).toBe(0);
    const manifest = JSON.parse(run.stdout);
    expect(manifest).toMatchObject({ name: "good-plugin", version: "1.2.3" });
    expect(manifest.tools.map((t: { name: string }) => t.name)).toEqual([
      "greet",
      "fail",
      "secret",
      "remember",
      "recall",
    ]);
  });

  it("--invoke with key=value pairs converts them by the parameter types", async () => {
    const run = await dev(good, "--invoke", "greet", "--args", "name=Ann Lee", "times=2", "loud=true");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      success: true,
      data: { greeting: "HELLO ANN LEE HELLO ANN LEE" },
    });
    expect(run.stderr).toMatch(/greet: ✔ success in \d+ ms/);
    // The plugin's stderr is shown, on stderr: stdout stays the result alone.
    expect(run.stderr).toContain("[log]");
    expect(run.stderr).toContain("greeting Ann Lee");
  });

  it("--invoke with JSON arguments, and a command after --", async () => {
    const run = await dev("--invoke", "greet", "--args", '{"name": "Bob"}', "--", process.execPath, good);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).data).toEqual({ greeting: "hello Bob" });
  });

  it("exits 1 for success: false and for an error frame, saying which", async () => {
    const failure = await dev(good, "--invoke", "fail", "--args", "why=nope");
    expect(failure.code).toBe(1);
    expect(JSON.parse(failure.stdout)).toMatchObject({ success: false, error: "nope" });
    const error = await dev(good, "--invoke", "greet");
    expect(error.code).toBe(1);
    expect(error.stdout).toBe("");
    expect(error.stderr).toMatch(/✖ error -32602 in \d+ ms: name must be a string/);
    const unknown = await dev(good, "--invoke", "nosuch");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("-32601");
  });

  it("refuses malformed arguments before invoking", async () => {
    const run = await dev(good, "--invoke", "greet", "--args", "times=many");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('times: expected an integer, got "many"');
    const usage = await dev(good, "--args", "a=1");
    expect(usage.code).not.toBe(0);
    expect(usage.stderr).toContain("--args needs --invoke");
  });

  it("--credential reaches context.credentials", async () => {
    const without = await dev(good, "--invoke", "secret", "--quiet");
    expect(JSON.parse(without.stdout).data).toEqual({ present: false });
    const withKey = await dev(good, "--invoke", "secret", "--credential", "GOOD_API_KEY=sk-1");
    expect(JSON.parse(withKey.stdout).data).toEqual({ present: true });
  });

  it("answers storage reverse calls from the profile's data dir, kept between runs", async () => {
    const run = await dev(
      good,
      "--invoke",
      "remember",
      "--args",
      "key=k1",
      'value={"n": 1}',
      "--profile",
      "p1",
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).data).toEqual({ stored: { n: 1 } });
    expect(existsSync(join(cwd, ".executa", "dev", "p1", "storage.db"))).toBe(true);
    const bad = await dev(good, "--describe", "--profile", "../escape");
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("profile");
  });

  it("runs a TypeScript entry through the build's SWC transform (decorator metadata present)", async () => {
    const run = await dev(fixture("ts-plugin/main.ts"), "--describe");
    expect(run.code, run.stderr).toBe(0);
    const parameters = JSON.parse(run.stdout).tools[0].parameters;
    expect(parameters.map((p: { type: string }) => p.type)).toEqual(["string", "number", "boolean"]);
    const invoked = await dev(
      fixture("ts-plugin/main.ts"),
      "--invoke",
      "repeat",
      "--args",
      "text=ab",
      "times=2",
      "loud=true",
    );
    expect(JSON.parse(invoked.stdout).data).toEqual({ text: "ABAB" });
  });

  it("says what is missing when there is no entry", async () => {
    const run = await dev("--describe");
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("src/main.ts");
  });
});
