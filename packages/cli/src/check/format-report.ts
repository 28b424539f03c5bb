import { styleText } from "node:util";
import type { CheckNotRun, CheckResult, CheckStatus, ConformanceReport } from "@executa/host";

/** How to render text output. */
export interface FormatOptions {
  /** ANSI colours. Default false. */
  color?: boolean;
}

const STATUS_COLOR: Record<CheckStatus, "green" | "yellow" | "red"> = {
  PASS: "green",
  WARN: "yellow",
  FAIL: "red",
};
const ID_WIDTH = 24;

/** One report line: `  PASS  describe                 answered in 12 ms`. */
export function formatCheckLine(result: CheckResult, options: FormatOptions = {}): string {
  const status = options.color ? styleText(STATUS_COLOR[result.status], result.status) : result.status;
  return `  ${status}  ${result.id.padEnd(ID_WIDTH)} ${result.reason}`;
}

/** The checks a batch run could not do, and why (they need a live pipe, which `via` cannot give). */
export function formatNotRun(notRun: readonly CheckNotRun[], via = "the runner"): string {
  return (
    `\n  not run (they need a live pipe, which ${via} cannot give this binary):\n` +
    notRun.map((check) => `    ${check.title}: ${check.why}\n`).join("")
  );
}

/** The report's first line: what was checked. */
export function formatReportHeader(report: Pick<ConformanceReport, "command" | "args">): string {
  return `executa check: ${[report.command, ...report.args].map(quoteIfNeeded).join(" ")}`;
}

/** The closing lines: the plugin, then the counts and the verdict. */
export function formatSummary(report: ConformanceReport, options: FormatOptions = {}): string {
  const { summary } = report;
  const plugin = report.plugin;
  const lines: string[] = [];
  if (plugin?.name) {
    lines.push(
      `plugin ${plugin.name}${plugin.version ? ` ${plugin.version}` : ""}${plugin.protocolVersion ? ` · protocol ${plugin.protocolVersion}` : ""}`,
    );
  }
  const verdict = summary.ok
    ? summary.warn > 0
      ? "conformant, with warnings"
      : "conformant"
    : "NOT conformant";
  const text = `${summary.total} checks: ${summary.pass} passed, ${summary.warn} warned, ${summary.fail} failed in ${(report.durationMs / 1000).toFixed(1)} s: ${verdict}`;
  lines.push(options.color ? styleText(summary.ok ? "green" : "red", text) : text);
  return lines.join("\n");
}

/** The whole report as text. */
export function formatReport(report: ConformanceReport, options: FormatOptions = {}): string {
  return [
    formatReportHeader(report),
    ...report.checks.map((check) => formatCheckLine(check, options)),
    "",
    formatSummary(report, options),
  ].join("\n");
}

function quoteIfNeeded(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
