import { CHECKS_NEEDING_A_PIPE, runBatchConformance } from "@executa/host";
import { describe, expect, it } from "vitest";
import { fixture } from "../helpers/cli.js";
import { expectVerdicts, reasonOf } from "../helpers/report.js";

// The checks Wine allows a Node single executable: conversations written to a file that is
// the plugin's stdin, answers read from a file that is its stdout. Driven here with Node.
const node = process.execPath;
const check = (name: string) => runBatchConformance(node, [fixture(name)]);

describe("runBatchConformance", () => {
  it("passes a conformant plugin, invoking the tools whose required parameters have samples", async () => {
    const report = await check("good-plugin.mjs");
    expectVerdicts(report, {});
    expect(report.checks.map((c) => c.id)).toEqual([
      "initialize",
      "describe",
      "manifest",
      "health",
      "parse-error",
      "invalid-request",
      "invalid-request-method",
      "method-not-found",
      "invalid-params",
      "unknown-tool",
      "long-line",
      // greet, remember and recall need a value no default or enum gives.
      "invoke:fail",
      "invoke:secret",
      "eof-exit",
      "stdout-purity",
    ]);
    expect(reasonOf(report, "invoke:fail")).toContain("success: false");
    expect(report.manifest).toMatchObject({ name: "good-plugin", version: "1.2.3" });
    expect(report.notRun).toEqual(CHECKS_NEEDING_A_PIPE);
    expect(report.notRun.map((c) => c.id)).toContain("sigterm-exit");
  });

  it("does not judge a tool that calls the host, whose reply a batch run cannot give", async () => {
    const report = await check("calls-host.mjs");
    expectVerdicts(report, { "invoke:visits": "WARN" });
    expect(reasonOf(report, "invoke:visits")).toContain("needs a live pipe");
  });

  it("judges a tool whose own failure only reads like a closed input: the kind decides, not the text", async () => {
    const report = await check("says-closed-stdin.mjs");
    expectVerdicts(report, { "invoke:visits": "FAIL" });
    expect(reasonOf(report, "invoke:visits")).toContain("upstream closed stdin");
  });

  it("fails a plugin that exits non-zero at end of input", async () => {
    const report = await check("exit-code-on-eof.mjs");
    expectVerdicts(report, { "eof-exit": "FAIL" });
    expect(reasonOf(report, "eof-exit")).toContain("code 3");
  });

  it("fails a plugin that logs to stdout", async () => {
    const report = await check("stdout-logs.mjs");
    expectVerdicts(report, { "stdout-purity": "FAIL" });
    expect(reasonOf(report, "stdout-purity")).toContain("kit-plugin starting");
  });

  it("fails a plugin that dies on an oversized line, naming why", async () => {
    const report = await check("dies-on-long-line.mjs");
    expectVerdicts(report, { "long-line": "FAIL", "eof-exit": "FAIL" });
    expect(reasonOf(report, "long-line")).toContain("line too long, giving up");
  });

  it("fails every answer of a plugin whose stdout is closed", async () => {
    const report = await runBatchConformance(node, [
      "-e",
      "require('node:fs').closeSync(1); setTimeout(() => {}, 50)",
    ]);
    expect(report.summary.ok).toBe(false);
    expect(reasonOf(report, "initialize")).toContain("no answer to initialize");
  });

  it("rejects when the command cannot be started", async () => {
    await expect(runBatchConformance("/nonexistent/plugin-binary")).rejects.toThrow(/ENOENT/);
  });
});
