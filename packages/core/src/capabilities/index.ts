/** Typed clients for the host's reverse capabilities (`ctx.host.*`) and display blocks. */

export {
  isStandardSchema,
  type StandardJSONSchemaV1,
  type StandardSchemaV1,
} from "../schema/standard/standard-schema.js";
export { AgentCallErrorCode, AgentSessions } from "./agent.js";
export {
  type AgentCompleteFrame,
  type AgentErrorFrame,
  type AgentFinalFrame,
  type AgentOtherFrame,
  type AgentRunFrame,
  type AgentRunMetaFrame,
  type AgentRunWarning,
  type AgentTokenFrame,
  inheritsHostTools,
  NO_TOOLS_AVAILABLE,
  runText,
  runWarnings,
  toAgentFrame,
} from "./agent-frames.js";
export type * from "./agent-requests.js";
export { type AgentHistory, AgentRun, AgentSession, type AgentSessionCalls } from "./agent-session.js";
export type { BackoffOptions } from "./backoff.js";
export { CapabilityError, type CapabilityFamilyName, type FamilyCodes } from "./capability-error.js";
export * from "./clients.js";
export {
  type CreatedObject,
  type CreateObjectRequest,
  parseJsonAnswer,
} from "./create-object.js";
export {
  DISPLAY_LIMITS,
  type Display,
  type DisplayBlock,
  display,
  type MarkdownDisplayBlock,
  markdown,
  withDisplay,
} from "./display.js";
export type {
  EmbeddingsOptions,
  EmbeddingsResult,
} from "./embeddings.js";
export type { CallOptions } from "./family.js";
export type {
  FileDownloadOptions,
  FileDownloadUrl,
  FileInfo,
  FileListOptions,
  FileUploadBeginOptions,
  FileUploadCompleteOptions,
  FileUploadOptions,
  FileUploadResult,
  FileUploadTicket,
} from "./files.js";
export type { HostClients } from "./host-clients.js";
export type {
  ImageEditRequest,
  ImageGenerateRequest,
  ImageResult,
} from "./image.js";
export type {
  ObjectIssue,
  ObjectSchema,
  ObjectSchemaProvider,
  ObjectTarget,
  ObjectValidation,
} from "./object-schema.js";
export {
  type JsonObjectResponseFormat,
  type JsonSchemaResponseFormat,
  type JsonSchemaSpec,
  ON_UNSUPPORTED_VALUES,
  type OnUnsupported,
  RESPONSE_FORMAT_LIMITS,
  RESPONSE_FORMAT_TYPES,
  type ResponseFormat,
  type ResponseFormatReport,
} from "./response-format.js";
export { StructuredOutputError } from "./sampling.js";
export type { StructuredOutputErrorData, StructuredOutputFailure } from "./sampling-error.js";
export {
  type CreateMessageMeta,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ModelPreferences,
  type SamplingMessage,
  type SamplingRole,
  type SamplingUsage,
  type TextContent,
  totalTokens,
} from "./sampling-messages.js";
export {
  DEFAULT_STORAGE_SCOPE,
  type ScopeOptions,
  STORAGE_SCOPES,
  type StorageDeleteOptions,
  type StorageEntry,
  type StorageListItem,
  type StorageListOptions,
  type StorageListPage,
  type StorageScope,
  type StorageSetOptions,
  type StorageUpdateOptions,
  type StorageUpdateResult,
  type StorageWriteResult,
} from "./storage.js";
export {
  type HostUploadResult,
  type InlineUploadRequest,
  type NegotiateUploadRequest,
  UPLOAD_PURPOSES,
  type UploadBytesRequest,
  type UploadFileOptions,
  type UploadNegotiation,
  type UploadPurpose,
} from "./upload.js";
