/** The verdict of one conformance check. */
export type CheckStatus = "PASS" | "WARN" | "FAIL";

/** One conformance check's outcome. */
export interface CheckResult {
  /** Stable id, e.g. `"health-status"`; `--skip` and the JSON report use it. */
  id: string;
  /** The group that ran it, e.g. `"errors"`. */
  group: string;
  /** What is checked, e.g. "health status value". */
  title: string;
  status: CheckStatus;
  /** One line saying why. */
  reason: string;
  durationMs: number;
  /** Extra facts (all manifest issues, timings, the offending lines). */
  details?: Record<string, unknown>;
}

/** Counts over a report's checks. */
export interface ConformanceSummary {
  total: number;
  pass: number;
  warn: number;
  fail: number;
  /** True when no check failed (warnings allowed). */
  ok: boolean;
}

/** What `runConformance` and `executa check --json` report. */
export interface ConformanceReport {
  /** Shape version of this object. */
  schema: "executa-check/1";
  command: string;
  args: string[];
  /** From the manifest and the `initialize` answer, when the plugin gave them. */
  plugin?: { name?: string; version?: string; protocolVersion?: string };
  startedAt: string;
  durationMs: number;
  checks: CheckResult[];
  summary: ConformanceSummary;
}

/** Counts the verdicts of `checks`. */
export function summarize(checks: readonly CheckResult[]): ConformanceSummary {
  const count = (status: CheckStatus) => checks.filter((c) => c.status === status).length;
  const fail = count("FAIL");
  return { total: checks.length, pass: count("PASS"), warn: count("WARN"), fail, ok: fail === 0 };
}

/** Times one check from creation to verdict. */
export class CheckTimer {
  private readonly started = performance.now();

  constructor(
    private readonly group: string,
    private readonly id: string,
    private readonly title: string,
  ) {}

  pass(reason: string, details?: Record<string, unknown>): CheckResult {
    return this.verdict("PASS", reason, details);
  }

  warn(reason: string, details?: Record<string, unknown>): CheckResult {
    return this.verdict("WARN", reason, details);
  }

  fail(reason: string, details?: Record<string, unknown>): CheckResult {
    return this.verdict("FAIL", reason, details);
  }

  verdict(status: CheckStatus, reason: string, details?: Record<string, unknown>): CheckResult {
    const result: CheckResult = {
      id: this.id,
      group: this.group,
      title: this.title,
      status,
      reason,
      durationMs: Math.round(performance.now() - this.started),
    };
    if (details) result.details = details;
    return result;
  }
}
