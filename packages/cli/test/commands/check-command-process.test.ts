import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ConformanceReport } from "@executa/host";
import { beforeAll, describe, expect, it } from "vitest";
import { fixture, requireBuiltCli, runCli } from "../helpers/cli.js";

beforeAll(requireBuiltCli);

describe("executa check (built CLI)", () => {
  it("--json prints the report and exits 0 for a conformant plugin", async () => {
    const run = await runCli(["check", "--json", "--", process.execPath, fixture("good-plugin.mjs")]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as ConformanceReport;
    expect(report).toMatchObject({
      schema: "executa-check/1",
      command: process.execPath,
      args: [fixture("good-plugin.mjs")],
      plugin: { name: "good-plugin", version: "1.2.3", protocolVersion: "2.0" },
      summary: { fail: 0, warn: 0, ok: true },
    });
    expect(typeof report.startedAt).toBe("string");
    expect(report.durationMs).toBeGreaterThan(0);
    for (const check of report.checks) {
      expect(Object.keys(check).sort()).toEqual(
        expect.arrayContaining(["durationMs", "group", "id", "reason", "status", "title"]),
      );
      expect(check.status).toBe("PASS");
      expect(check.reason).not.toContain("\n");
    }
  });

  it("prints one PASS / WARN / FAIL line per check and exits 1 on a failure", async () => {
    const run = await runCli(["check", "--skip", "framing", process.execPath, fixture("healthy-status.mjs")]);
    expect(run.code).toBe(1);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe(`executa check: ${process.execPath} ${fixture("healthy-status.mjs")}`);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {2}FAIL {2}health +status must be one of ready, error, initializing, got "healthy"/,
      ),
    );
    expect(lines.filter((line) => /^ {2}(PASS|WARN|FAIL) {2}/.test(line))).toHaveLength(16);
    expect(run.stdout).not.toContain("long-line");
    expect(run.stdout).toMatch(/16 checks: 15 passed, 0 warned, 1 failed in [\d.]+ s: NOT conformant/);
  });

  it("exits 0 with warnings only", async () => {
    const run = await runCli([
      "check",
      "--skip",
      "framing",
      "--",
      process.execPath,
      fixture("warn-manifest.mjs"),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/WARN {2}manifest/);
    expect(run.stdout).toContain("conformant, with warnings");
  });

  it("refuses an unknown --skip id and a missing command", async () => {
    const skip = await runCli(["check", "--skip", "nope", "--", "true"]);
    expect(skip.code).not.toBe(0);
    expect(skip.stderr).toContain("unknown check");
    const missing = await runCli(["check"]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("missing required argument 'command'");
  });

  it("reports a command that cannot start", async () => {
    const run = await runCli(["check", "--json", "--", "/nonexistent/plugin"]);
    expect(run.code).toBe(1);
    expect((JSON.parse(run.stdout) as ConformanceReport).checks).toMatchObject([
      { id: "start", status: "FAIL" },
    ]);
  });

  it("says which platform a foreign executable is for and how to check it, instead of a FAIL per check", async () => {
    // A Windows arm64 PE header: nothing runs it on this machine (Linux or macOS x86_64).
    const binary = writePe(0xaa64);
    try {
      const run = await runCli(["check", "--", binary]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /executa check: .*plugin is a windows-arm64 executable and this machine is \S+: nothing runs windows-arm64 binaries on \S+\. Check it on windows-arm64\./,
      );
      expect(run.stdout).not.toContain("FAIL");
    } finally {
      rmSync(dirname(binary), { recursive: true, force: true });
    }
  });

  it("checks a windows-x86_64 executable under Wine in batch mode, naming the checks that need a live pipe (on CI, Wine is required)", async () => {
    // A bare PE header, which Wine cannot load: the batch checks fail.
    const binary = writePe(0x8664);
    try {
      const run = await runCli(["check", "--", binary]);
      expect(run.code).toBe(1);
      if (!onCi && run.stderr.includes("Wine is not installed")) return;
      expect(run.stderr).toMatch(
        /plugin is a windows-x86_64 executable: checking it under wine\S* in batch mode/,
      );
      expect(run.stdout).toMatch(/FAIL {2}initialize +no answer to initialize/);
      expect(run.stdout).toContain("not run (they need a live pipe");
      expect(run.stdout).toContain("SIGTERM → exit 0 within 5 s: signals the running process");
    } finally {
      rmSync(dirname(binary), { recursive: true, force: true });
    }
  });
});

const onCi = Boolean(process.env.CI) && process.env.CI !== "false";

/** An executable file holding only a PE header for `machine` (0x8664 x86_64, 0xaa64 arm64), in a folder of its own. */
function writePe(machine: number): string {
  const dir = mkdtempSync(join(tmpdir(), "executa-check-foreign-"));
  const pe = Buffer.alloc(0x100);
  pe.write("MZ", 0, "latin1");
  pe.writeUInt32LE(0x80, 0x3c);
  pe.write("PE\0\0", 0x80, "latin1");
  pe.writeUInt16LE(machine, 0x84);
  const binary = join(dir, "plugin");
  writeFileSync(binary, pe);
  chmodSync(binary, 0o755);
  return binary;
}
