import type { CheckStatus, ConformanceReport } from "@executa/host";
import { expect } from "vitest";

/** The status of every check, by id. */
export function statuses(report: ConformanceReport): Record<string, CheckStatus> {
  return Object.fromEntries(report.checks.map((check) => [check.id, check.status]));
}

/**
 * The checks named in `expected` have those statuses and every other check passed: the
 * planted fault is found, and nothing else is blamed.
 */
export function expectVerdicts(report: ConformanceReport, expected: Record<string, CheckStatus>): void {
  const wanted = Object.fromEntries(report.checks.map((check) => [check.id, expected[check.id] ?? "PASS"]));
  const reasons = report.checks.map((check) => `${check.status} ${check.id}: ${check.reason}`).join("\n");
  expect(statuses(report), reasons).toEqual(wanted);
}

/** The reason of one check. */
export function reasonOf(report: ConformanceReport, id: string): string {
  const check = report.checks.find((c) => c.id === id);
  if (!check) throw new Error(`no check ${id} in the report`);
  return check.reason;
}
