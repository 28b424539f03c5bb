import { runConformance } from "@executa/host";
import { describe, expect, it } from "vitest";
import { fixture } from "../helpers/cli.js";
import { expectVerdicts, reasonOf, statuses } from "../helpers/report.js";

const check = (name: string, options: Parameters<typeof runConformance>[2] = {}) =>
  runConformance(process.execPath, [fixture(name)], options);

// Each broken fixture plants one fault; the check for it must catch it and nothing else may fail.
describe("runConformance catches wire faults", () => {
  it('health answering "healthy"', async () => {
    const report = await check("healthy-status.mjs");
    expectVerdicts(report, { health: "FAIL" });
    expect(reasonOf(report, "health")).toContain('"healthy"');
  });

  it("logs on stdout", async () => {
    const report = await check("stdout-logs.mjs");
    expectVerdicts(report, { "stdout-purity": "FAIL" });
    expect(reasonOf(report, "stdout-purity")).toContain("kit-plugin starting");
  });

  it("parse errors dropped silently", async () => {
    const report = await check("ignores-parse-errors.mjs", { replyTimeoutMs: 1000 });
    expectVerdicts(report, { "parse-error": "FAIL" });
    expect(reasonOf(report, "parse-error")).toContain("no answer");
  });

  it("a crash on unparsable input", async () => {
    const report = await check("crashes-on-garbage.mjs");
    expectVerdicts(report, { "parse-error": "FAIL" });
    expect(reasonOf(report, "parse-error")).toMatch(/exited \(code 1\).*SyntaxError/);
  });

  it("notifications answered", async () => {
    const report = await check("answers-notifications.mjs");
    expectVerdicts(report, { notifications: "FAIL" });
    expect(reasonOf(report, "notifications")).toContain("answered 3 of 3");
  });

  it("a malformed manifest", async () => {
    const report = await check("bad-manifest.mjs");
    expectVerdicts(report, { manifest: "FAIL" });
    const issues = report.checks.find((c) => c.id === "manifest")!.details!.issues as { path: string }[];
    expect(issues.map((i) => i.path)).toEqual(
      expect.arrayContaining([
        "name",
        "version",
        "description",
        "tools[0].timeout",
        "tools[0].parameters[0].type",
        "tools[0].parameters[0].required",
        "tools[0].parameters[1].name",
        "tools[1].name",
      ]),
    );
  });

  it("a manifest with warnings only", async () => {
    const report = await check("warn-manifest.mjs");
    expectVerdicts(report, { manifest: "WARN" });
  });

  it("wrong error codes", async () => {
    const report = await check("wrong-error-codes.mjs");
    expectVerdicts(report, {
      "parse-error": "WARN",
      "method-not-found": "FAIL",
      "invalid-params": "WARN",
      "unknown-tool": "WARN",
    });
    expect(reasonOf(report, "method-not-found")).toContain("result null");
  });

  it("pipelined requests lost", async () => {
    // The framing group's request after a 17 MiB line is lost the same way and waited out
    // for 11 s; only pipelining is judged here.
    const report = await check("drops-pipelined.mjs", { replyTimeoutMs: 1000, skip: ["framing"] });
    expect(statuses(report).pipelining).toBe("FAIL");
    expect(reasonOf(report, "pipelining")).toMatch(/^\d+\/16 answered/);
  });
});
