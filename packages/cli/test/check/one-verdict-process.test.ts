import type { CheckStatus, ConformanceReport } from "@executa/host";
import { beforeAll, describe, expect, it } from "vitest";
import { checkConformance } from "../../../bundler/src/verify/conformance.js";
import { fixture, requireBuiltCli, runCli } from "../helpers/cli.js";

beforeAll(requireBuiltCli);

/**
 * Plugins that `executa check` and the build's verification used to judge differently,
 * each with the one verdict the spec gives it, asserted through both paths.
 */
const CASES: { fixture: string; check: string; status: CheckStatus; reason: RegExp }[] = [
  {
    fixture: "health-not-implemented.mjs",
    check: "health",
    status: "WARN",
    reason: /not implemented \(-32601\): the spec treats that as healthy/,
  },
  {
    fixture: "drops-long-line.mjs",
    check: "long-line",
    status: "FAIL",
    reason: /dropped a 17 MiB line without an answer \(expected error -32600 with id null/,
  },
  {
    fixture: "accepts-long-line.mjs",
    check: "long-line",
    status: "WARN",
    reason: /accepted it \(reads lines over 16 MiB\); expected -32600/,
  },
  {
    fixture: "unknown-tool-success-false.mjs",
    check: "unknown-tool",
    status: "WARN",
    reason: /answered success: false/,
  },
  {
    fixture: "default-sigterm.mjs",
    check: "sigterm-exit",
    status: "WARN",
    reason: /died from SIGTERM's default action/,
  },
];

const command = (name: string) => ({ command: process.execPath, args: [fixture(name)] });
const options = { timeoutMs: 5_000, exitGraceMs: 5_000 };

describe("one conformance verdict: executa check and the build agree", () => {
  for (const { fixture: name, check, status, reason } of CASES) {
    it(`${name}: ${check} is ${status} in both`, async () => {
      const [run, built] = await Promise.all([
        runCli(["check", "--json", "--", process.execPath, fixture(name)]),
        checkConformance(command(name), options).then(
          (lines) => ({ lines, error: undefined }),
          (error: Error) => ({ lines: [] as string[], error }),
        ),
      ]);
      const report = JSON.parse(run.stdout) as ConformanceReport;
      const others = report.checks.filter((c) => c.id !== check && c.status !== "PASS");
      expect(others, "only the planted fault may be off").toEqual([]);
      const found = report.checks.find((c) => c.id === check)!;
      expect(found.status, found.reason).toBe(status);
      expect(found.reason).toMatch(reason);
      expect(run.code).toBe(status === "FAIL" ? 1 : 0);
      if (status === "FAIL") {
        expect(built.error).toMatchObject({ code: "CONFORMANCE" });
        expect(built.error!.message).toContain(`${found.title}: `);
        expect(built.error!.message).toMatch(reason);
      } else {
        expect(built.error).toBeUndefined();
        expect(built.lines).toContainEqual(expect.stringMatching(`^${escapeRegExp(found.title)} \\(WARN: `));
      }
    }, 60_000);
  }

  it("a conformant plugin passes every check in both", async () => {
    const lines = await checkConformance(command("good-plugin.mjs"), options);
    expect(lines.filter((line) => line.includes("(WARN:"))).toEqual([]);
    expect(lines).toContain("a 17 MiB line → -32600, keeps serving");
  }, 60_000);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
