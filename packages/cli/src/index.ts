/**
 * `@executa/cli` — the `executa` command (`dev`, `check`, `build`, `new`) and the
 * library behind it: `runConformance` for conformance reports of any plugin executable.
 * @packageDocumentation
 */

export type {
  CheckContext,
  CheckGroup,
  ConformanceOptions,
  ResolvedOptions,
  SharedFacts,
} from "./check/check-context.js";
export { type ManifestIssue, PARAMETER_TYPES, validateManifest } from "./check/checks/validate-manifest.js";
export {
  type FormatOptions,
  formatCheckLine,
  formatReport,
  formatReportHeader,
  formatSummary,
} from "./check/format-report.js";
export type { ProbeExit, ReplyOutcome } from "./check/probe/wire-probe.js";
export {
  type CheckResult,
  type CheckStatus,
  type ConformanceReport,
  type ConformanceSummary,
  summarize,
} from "./check/report.js";
export { CHECK_GROUP_IDS, CHECK_GROUPS, CHECK_IDS, runConformance } from "./check/run-conformance.js";
export { type CliIO, processIO } from "./cli-io.js";
export { DEFAULT_PROFILE, devDataDir } from "./dev/data-dir.js";
export { DevSession, type DevSessionOptions, type InvokeOutcome } from "./dev/dev-session.js";
export {
  formatInvokeError,
  formatInvokeResult,
  formatParameter,
  formatTool,
  formatTools,
} from "./dev/format.js";
export { InvokeArgsError, parseInvokeArgs, splitWords } from "./dev/invoke-args.js";
export { DevRepl, type DevReplOptions } from "./dev/repl.js";
export { DEFAULT_ENTRIES, type DevTarget, resolveTarget } from "./dev/target.js";
export { DEFAULT_WATCH_IGNORE, type WatchOptions, watchSources } from "./dev/watch.js";
export { createProgram } from "./program.js";
