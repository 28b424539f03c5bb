/**
 * `@executa/host` — the host side of the Executa protocol: spawn any plugin executable,
 * drive it (initialize with v1 fallback, describe, invoke, health, stop), read
 * file-transport replies, and answer its reverse calls through pluggable providers,
 * with local providers (SQLite storage, loopback-HTTP files and uploads, scripted /
 * echo / relayed sampling) for development.
 * @packageDocumentation
 */

export {
  type FileTransportRefusal,
  FileTransportRefusedError,
} from "./errors/file-transport-refused-error.js";
export { type ExitInfo, PluginExitedError } from "./errors/plugin-exited-error.js";
export { ProtocolViolationError } from "./errors/protocol-violation-error.js";
export { RequestTimeoutError } from "./errors/request-timeout-error.js";
export { type Clock, systemClock } from "./local/clock.js";
export {
  createLocalProviders,
  type LocalProviders,
  type LocalProvidersOptions,
} from "./local/create-local-providers.js";
export {
  DEFAULT_MAX_OBJECT_BYTES,
  FilesProvider,
  type FilesProviderOptions,
} from "./local/files-provider.js";
export { BlobDir } from "./local/http/blob-dir.js";
export { LoopbackServer, type Route, type RouteHandler } from "./local/http/loopback-server.js";
export { type SignatureCheck, UrlSigner } from "./local/http/url-signer.js";
export { EchoResponder } from "./local/sampling/echo-responder.js";
export { OpenAiRelayResponder, type RelayConfig } from "./local/sampling/openai-relay.js";
export {
  readSamplingRequest,
  type SamplingMessage,
  type SamplingReply,
  type SamplingRequest,
  type SamplingResponder,
} from "./local/sampling/request.js";
export {
  createResponder,
  type SamplingConfig,
  samplingConfigFromEnv,
} from "./local/sampling/sampling-config.js";
export { type SamplingLimits, SamplingProvider } from "./local/sampling/sampling-provider.js";
export { parseScript, ScriptResponder, type ScriptRule } from "./local/sampling/script-responder.js";
export { type ResolvedScope, STORAGE_SCOPES, type StorageScope } from "./local/scope.js";
export {
  DEFAULT_MAX_VALUE_BYTES,
  StorageProvider,
  type StorageProviderOptions,
} from "./local/storage-provider.js";
export { type Entry, type EntryKind, LocalStore } from "./local/store/local-store.js";
export {
  DEFAULT_MAX_UPLOAD_BYTES,
  UploadProvider,
  type UploadProviderOptions,
} from "./local/upload-provider.js";
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
