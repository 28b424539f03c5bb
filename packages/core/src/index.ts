/**
 * `@executa/core` — what plugin and host authors use of the Executa protocol engine: the
 * plugin server (`definePlugin`, `servePlugin`), the invoke context and its typed
 * capability clients, the error classes, and the protocol's wire types, error codes,
 * limits, capability-family table and manifest rules. What only the toolkit's own
 * packages share (framing, the JSON-RPC peer, the invoke-scope plumbing) is in
 * `@executa/core/internal`, which makes no compatibility promise.
 * @packageDocumentation
 */

export * from "./capabilities/index.js";
export type { InvokeDeadline } from "./context/deadline.js";
export {
  currentContext,
  currentInvoke,
  type InvokeContext,
  NoInvokeContextError,
} from "./context/invoke-context.js";
export { CodedError, type CodedErrorOptions } from "./errors/coded-error.js";
export { InvalidParamsError, type ParamIssue, type ParamIssueKind } from "./errors/invalid-params-error.js";
export { MethodNotFoundError } from "./errors/method-not-found-error.js";
export { RpcError } from "./errors/rpc-error.js";
export { ToolTimeoutError } from "./errors/timeout-error.js";
export { ToolError } from "./errors/tool-error.js";
export { UnknownToolError } from "./errors/unknown-tool-error.js";
export type { InputStream, OutputStream } from "./framing/byte-streams.js";
export type { FrameSink } from "./framing/frame-writer.js";
export type { LineEvent } from "./framing/line-reader.js";
export { createLogger, type Logger, type LogLevel } from "./log/logger.js";
export {
  DEFAULT_ELEMENT_TYPE,
  isParameterType,
  PARAMETER_TYPE_NAMES,
  PARAMETER_TYPES,
  type ParameterTypeRules,
  parameterType,
  type TextReading,
} from "./manifest/parameter-types/index.js";
export {
  ARGUMENT_NAME_PATTERN,
  CREDENTIAL_NAME_PATTERN,
  MANIFEST_TEXT_FIELDS,
  PLUGIN_NAME_PATTERN,
  SEMVER_PATTERN,
  TOOL_NAME_PATTERN,
} from "./manifest/rules.js";
export { type ManifestIssue, validateManifest } from "./manifest/validate-manifest.js";
export type { McpFallback, McpFallbackCall, McpServeOptions } from "./mcp/fallback.js";
export type { JsonSchema, OutputSchema } from "./mcp/input-schema.js";
export { type ProgressUpdate, reportProgress } from "./mcp/progress.js";
export type { ProtocolSetting, ServedProtocol } from "./mcp/protocol-choice.js";
export type { RequestOptions } from "./rpc/peer.js";
export { type CodecDefinition, registerCodec } from "./schema/codecs/index.js";
export type {
  Flattened,
  FromObjectSchema,
  FromSchema,
  FromTypedSchema,
  SchemaExtraProperties,
  SchemaProperties,
  SchemaRequiredKeys,
} from "./schema/from-schema.js";
export type {
  AnyOfSchema,
  AnySchema,
  ArraySchema,
  BooleanSchema,
  NullSchema,
  NumericSchema,
  ObjectTypeSchema,
  RefSchema,
  Schema,
  SchemaAnnotations,
  SchemaTarget,
  StringSchema,
} from "./schema/schema.js";
export {
  SchemaConversionError,
  type SchemaConversionErrorCode,
} from "./schema/standard/schema-conversion-error.js";
export { type StandardSchemaReading, schemaOfStandard } from "./schema/standard/schema-of-standard.js";
export { createPluginServer, type ServeOptions, servePlugin } from "./server/create-server.js";
export {
  definePlugin,
  type HealthContext,
  type PluginClass,
  type PluginDefinition,
  type ServerOptions,
  type ToolHandler,
} from "./server/definition.js";
export { type Negotiation, PluginServer, type StopReason } from "./server/plugin-server.js";
export { type MemoryTransportEnd, memoryTransportPair } from "./transport/memory-transport.js";
export { type StreamTransportOptions, streamTransport } from "./transport/stream-transport.js";
export type { Transport, TransportReceiver } from "./transport/transport.js";
export {
  CAPABILITY_FAMILIES,
  type CapabilitySlot,
  type ClientCapabilities,
  type FamilyErrorCodes,
  HOST_CAPABILITY_NAMES,
  type HostCapabilityGrant,
  type KnownHostCapability,
  REVERSE_FAMILIES,
  type ReverseFamily,
  type ReverseFamilyName,
  type ReverseMethod,
  type ReverseMethodRow,
  type ReverseMethodRowOf,
  type ReverseParams,
  type ReverseResult,
  USER_SCOPE_GRANTS,
} from "./wire/capability-families.js";
export {
  type AttemptedFrame,
  classifyFrame,
  type FrameClass,
  type NotAFrameClass,
  type NotAFrameReason,
  type NotificationFrameClass,
  type RequestFrameClass,
  type ResponseFrameClass,
} from "./wire/classify-frame.js";
export * from "./wire/error-codes.js";
export * from "./wire/invoke.js";
export * from "./wire/jsonrpc.js";
export * from "./wire/limits.js";
export * from "./wire/manifest.js";
