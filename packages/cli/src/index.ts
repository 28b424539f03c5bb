/**
 * `@executa/cli` — the `executa` command (`dev`, `check`, `build`, `new`). As a library it
 * exports only what `executa check` offers programs: `runConformance` for conformance
 * reports of any plugin executable, and the report's formatting. The command's own
 * modules (dev session, REPL, watch, program) are not exported.
 * @packageDocumentation
 */

export type { ConformanceOptions } from "./check/check-context.js";
export {
  type FormatOptions,
  formatCheckLine,
  formatReport,
  formatReportHeader,
  formatSummary,
} from "./check/format-report.js";
export type {
  CheckResult,
  CheckStatus,
  ConformanceReport,
  ConformanceSummary,
} from "./check/report.js";
export { CHECK_GROUP_IDS, CHECK_IDS, runConformance } from "./check/run-conformance.js";
