/**
 * `@executa/core` — the Executa protocol engine: wire types and limits, bounded line
 * framing, a bidirectional JSON-RPC peer, and the plugin server.
 * @packageDocumentation
 */

export * from "./capabilities/index.js";
export { createInvokeContext, type InvokeContextInit, resolveCredentials } from "./context/create-context.js";
export { currentInvoke, type InvokeContext, runWithInvoke } from "./context/invoke-context.js";
export type { ReverseChannel } from "./context/reverse-channel.js";
export { InvalidParamsError, type ParamIssue } from "./errors/invalid-params-error.js";
export { MethodNotFoundError } from "./errors/method-not-found-error.js";
export { previewText } from "./errors/preview.js";
export { RpcError } from "./errors/rpc-error.js";
export { ToolTimeoutError } from "./errors/timeout-error.js";
export { ToolError } from "./errors/tool-error.js";
export { UnknownToolError } from "./errors/unknown-tool-error.js";
export { type FrameSink, FrameWriter } from "./framing/frame-writer.js";
export { type LineEvent, LineReader, type LineReaderOptions } from "./framing/line-reader.js";
export { createLogger, type Logger, type LogLevel } from "./log/logger.js";
export { writeTransportFile } from "./rpc/file-transport.js";
export {
  type IncomingRequest,
  JsonRpcPeer,
  type PeerOptions,
  type RequestHandler,
  type RequestOptions,
} from "./rpc/peer.js";
export {
  definePlugin,
  type HealthContext,
  type PluginDefinition,
  type ServerOptions,
  type ToolHandler,
} from "./server/definition.js";
export { ConcurrencyLimiter } from "./server/limiter.js";
export { clientCapabilitiesFor, negotiateVersion } from "./server/negotiation.js";
export {
  createPluginServer,
  type Negotiation,
  PluginServer,
  type ServeOptions,
  type StopReason,
  servePlugin,
} from "./server/plugin-server.js";
export { EARLY_SIGNALS_KEY, STOP_SIGNALS } from "./server/stop-signals.js";
export { argumentsTooDeepError, checkArgumentDepth, nestsDeeperThan } from "./wire/argument-depth.js";
export {
  announcedCapabilities,
  CAPABILITY_FAMILIES,
  type CapabilitySlot,
  capabilityForMethod,
  type FamilyErrorCodes,
  HOST_CAPABILITY_NAMES,
  type HostCapabilityGrant,
  type KnownHostCapability,
  offeredCapabilities,
  REVERSE_FAMILIES,
  type ReverseFamily,
  type ReverseFamilyName,
  refusalCode,
  reverseFamilyOf,
  USER_SCOPE_GRANTS,
} from "./wire/capability-families.js";
export * from "./wire/error-codes.js";
export * from "./wire/invoke.js";
export * from "./wire/jsonrpc.js";
export * from "./wire/limits.js";
export * from "./wire/manifest.js";
export {
  type ParsedFrame,
  parseFrame,
  topLevelMemberText,
  withIdText,
} from "./wire/parse-frame.js";
