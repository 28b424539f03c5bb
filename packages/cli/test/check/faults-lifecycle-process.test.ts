import { runConformance } from "@executa/host";
import { describe, expect, it } from "vitest";
import { fixture } from "../helpers/cli.js";
import { expectVerdicts, reasonOf, statuses } from "../helpers/report.js";

const check = (name: string, options: Parameters<typeof runConformance>[2] = {}) =>
  runConformance(process.execPath, [fixture(name)], options);

// Each broken fixture plants one fault; the check for it must catch it and nothing else may fail.
describe("runConformance catches lifecycle faults", () => {
  it("a plugin that exits after its first reply", async () => {
    const report = await check("exits-after-first-reply.mjs", { skip: ["errors", "framing", "pipelining"] });
    expect(statuses(report)["still-serving"]).toBe("FAIL");
    expect(reasonOf(report, "still-serving")).toMatch(/exited \(code 0\) after its first reply/);
    expect(report.summary.ok).toBe(false);
  });

  it("a crash on a 17 MiB line", async () => {
    const report = await check("dies-on-long-line.mjs");
    expectVerdicts(report, { "long-line": "FAIL" });
    expect(reasonOf(report, "long-line")).toContain("line too long");
  });

  it("SIGTERM ignored", async () => {
    const report = await check("hangs-on-sigterm.mjs", { exitTimeoutMs: 1000 });
    expectVerdicts(report, { "sigterm-exit": "FAIL" });
    expect(reasonOf(report, "sigterm-exit")).toContain("still running");
  });

  it("SIGTERM left to the default action (warning)", async () => {
    const report = await check("default-sigterm.mjs");
    expectVerdicts(report, { "sigterm-exit": "WARN" });
    expect(report.summary.ok).toBe(true);
  });

  it("a non-zero exit on EOF", async () => {
    const report = await check("exit-code-on-eof.mjs");
    expectVerdicts(report, { "eof-exit": "FAIL" });
    expect(reasonOf(report, "eof-exit")).toContain("code 3");
  });

  it("describe slower than the limit", async () => {
    const report = await check("slow-describe.mjs", {
      describeTimeoutMs: 1000,
      env: { ...process.env, SLOW_DESCRIBE_MS: "3000" },
      // Later groups use describe as their liveness ping; with a slow describe they only add time.
      skip: ["errors", "notifications", "pipelining", "framing", "shutdown"],
    });
    expect(statuses(report)).toMatchObject({ describe: "FAIL", manifest: "FAIL" });
    expect(reasonOf(report, "describe")).toContain("no answer to describe within 1 s");
  });
});
