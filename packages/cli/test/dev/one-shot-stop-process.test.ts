import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, requireBuiltCli, runCli } from "../helpers/cli.js";

// After a one-shot verdict, `executa dev` stops the plugin by closing its stdin: the
// fixture logs a line whenever it is sent SIGTERM, so a SIGTERM would always show.

beforeAll(requireBuiltCli);
const dir = mkdtempSync(join(tmpdir(), "executa-dev-stop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const dev = (args: string[]) =>
  runCli(["dev", fixture("logs-sigterm.mjs"), "--data-dir", join(dir, "data"), ...args], { cwd: dir });

describe("executa dev one-shot, after its verdict", () => {
  it("--invoke stops the plugin without a SIGTERM to log", async () => {
    const run = await dev(["--invoke", "echo", "--args", '{"text":"hi"}']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("echo: ✔ success");
    expect(run.stderr).not.toContain("SIGTERM");
  });

  it("--describe stops the plugin without a SIGTERM to log", async () => {
    const run = await dev(["--describe"]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).name).toBe("kit-plugin");
    expect(run.stderr).not.toContain("SIGTERM");
  });
});
