/**
 * `@executa/host` — the host side of the Executa protocol: spawn any plugin executable,
 * drive it (initialize with v1 fallback, describe, invoke, health, stop), read
 * file-transport replies, and route its reverse calls to pluggable providers. This entry
 * is the driver only and loads no native module; the local providers (SQLite storage,
 * loopback-HTTP files and uploads, scripted / echo / relayed sampling) are in
 * `@executa/host/local`.
 * @packageDocumentation
 */

export {
  type BatchConformanceOptions,
  type BatchConformanceReport,
  CHECKS_NEEDING_A_PIPE,
  type CheckNotRun,
  runBatchConformance,
} from "./conformance/batch/run-batch-conformance.js";
export type { ConformanceOptions } from "./conformance/check-context.js";
export {
  type CheckResult,
  type CheckStatus,
  type ConformanceReport,
  type ConformanceSummary,
  summarize,
} from "./conformance/report.js";
export { CHECK_GROUP_IDS, CHECK_IDS, runConformance } from "./conformance/run-conformance.js";
export {
  type ExitInfo,
  type FileTransportRefusal,
  HostError,
  type HostErrorCode,
  type HostErrorDetails,
  type HostErrorOptions,
  isHostError,
} from "./errors/host-error.js";
export {
  DEFAULT_MAX_FILE_TRANSPORT_BYTES,
  type TakeTransportFileOptions,
  takeTransportFile,
} from "./process/file-transport-reader.js";
export { type LineListener, LineStream, pipeLines } from "./process/line-stream.js";
export type { PluginLink } from "./process/plugin-link.js";
export {
  type InvokeEvent,
  type InvokeOptions,
  PluginProcess,
  type PluginProcessEvents,
  type PluginProcessOptions,
  type PluginTimings,
  type ProgressEvent,
  spawnPlugin,
} from "./process/plugin-process.js";
export type { HealthReport, Negotiated } from "./process/results.js";
export type { StopOptions, StopResult, StopVia } from "./process/stop-child.js";
export type { ProviderSet, ReverseCall, ReverseCallContext, ReverseProvider } from "./providers/provider.js";
export type { CapabilityFamily } from "./routing/families.js";
export type { ReverseCallEvent } from "./routing/reverse-router.js";
