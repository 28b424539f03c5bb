/**
 * `@executa/cli` — the `executa` command (`dev`, `check`, `build`, `new`). As a library it
 * exports only what `executa check` offers programs: `runConformance` for conformance
 * reports of any plugin executable, and the report's formatting. The command's own
 * modules (dev session, REPL, watch, program) are not exported.
 * @packageDocumentation
 */

export {
  CHECK_GROUP_IDS,
  CHECK_IDS,
  type CheckResult,
  type CheckStatus,
  type ConformanceOptions,
  type ConformanceReport,
  type ConformanceSummary,
  runConformance,
} from "@executa/host";
export {
  type FormatOptions,
  formatCheckLine,
  formatReport,
  formatReportHeader,
  formatSummary,
} from "./check/format-report.js";
