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
  type FileTransportRefusal,
  FileTransportRefusedError,
} from "./errors/file-transport-refused-error.js";
export { type ExitInfo, PluginExitedError } from "./errors/plugin-exited-error.js";
export { ProtocolViolationError } from "./errors/protocol-violation-error.js";
export { RequestTimeoutError } from "./errors/request-timeout-error.js";
export {
  DEFAULT_MAX_FILE_TRANSPORT_BYTES,
  type TakeTransportFileOptions,
  TRANSPORT_DIR_PREFIX,
  TRANSPORT_FILE_PREFIX,
  takeTransportFile,
} from "./process/file-transport-reader.js";
export { type LineListener, LineStream } from "./process/line-stream.js";
export { hostCapabilitiesOffer } from "./process/offer.js";
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
export { type CapabilityFamily, type FamilySpec, familyOf } from "./routing/families.js";
export { type ActiveInvoke, InvokeRegistry } from "./routing/invoke-registry.js";
export {
  type ReverseCallEvent,
  ReverseRouter,
  type ReverseRouterOptions,
  type RouterState,
} from "./routing/reverse-router.js";
