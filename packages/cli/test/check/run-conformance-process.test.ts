import { runConformance } from "@executa/host";
import { describe, expect, it } from "vitest";
import { CHECK_IDS } from "../../src/index.js";
import { fixture } from "../helpers/cli.js";
import { expectVerdicts, reasonOf } from "../helpers/report.js";

const node = process.execPath;
const check = (name: string, options: Parameters<typeof runConformance>[2] = {}) =>
  runConformance(node, [fixture(name)], options);

describe("runConformance on conformant plugins", () => {
  it("passes every check for a plugin on @executa/core", async () => {
    const report = await check("good-plugin.mjs");
    expectVerdicts(report, {});
    expect(report.checks.map((c) => c.id)).toEqual(CHECK_IDS);
    expect(report.plugin).toEqual({ name: "good-plugin", version: "1.2.3", protocolVersion: "2.0" });
    expect(report.summary).toEqual({
      total: CHECK_IDS.length,
      pass: CHECK_IDS.length,
      warn: 0,
      fail: 0,
      ok: true,
    });
    expect(reasonOf(report, "long-line")).toContain("17 MiB");
  });

  it("passes a v1 plugin without initialize and health (-32601), warning about health", async () => {
    const report = await check("v1-plugin.mjs");
    // The spec treats a -32601 health as healthy: conformant, with a warning.
    expectVerdicts(report, { health: "WARN" });
    expect(report.summary.ok).toBe(true);
    expect(reasonOf(report, "initialize")).toContain("-32601");
    expect(reasonOf(report, "health")).toContain("-32601");
    expect(report.plugin?.protocolVersion).toBe("1.1");
  });

  it("reports a command that cannot start as one failed check", async () => {
    const report = await runConformance("/nonexistent/plugin-binary");
    expect(report.checks).toHaveLength(1);
    expect(report.checks[0]).toMatchObject({ id: "start", status: "FAIL" });
    expect(report.checks[0]!.reason).toContain("/nonexistent/plugin-binary");
    expect(report.summary.ok).toBe(false);
  });

  it("leaves out skipped checks and groups, and refuses unknown ids", async () => {
    const report = await check("good-plugin.mjs", { skip: ["framing", "shutdown", "pipelining", "errors"] });
    expect(report.checks.map((c) => c.id)).toEqual([
      "initialize",
      "describe",
      "manifest",
      "still-serving",
      "health",
      "notifications",
      "stdout-purity",
    ]);
    await expect(check("good-plugin.mjs", { skip: ["nope"] })).rejects.toThrow(/unknown check "nope"/);
  });

  it("streams each result to onResult as it settles", async () => {
    const seen: string[] = [];
    const report = await check("good-plugin.mjs", {
      skip: ["framing", "errors"],
      onResult: (r) => seen.push(r.id),
    });
    expect(seen).toEqual(report.checks.map((c) => c.id));
  });
});
