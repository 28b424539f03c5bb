/** Typed clients for the host's reverse capabilities (`ctx.host.*`) and display blocks. */

export {
  AgentCallErrorCode,
  AgentClient,
  type AgentCompleteRequest,
  AgentError,
  type AgentLifecycleResult,
  type AgentRefreshOptions,
  type AgentRunOptions,
  type AgentRunResult,
  type AgentSessionCreateOptions,
  type AgentSessionInfo,
  type AgentSessionListOptions,
  AgentSessions,
} from "./agent.js";
export type { BackoffOptions } from "./backoff.js";
export { CapabilityError, type CapabilityFamilyName, type FamilyCodes } from "./capability-error.js";
export {
  DISPLAY_LIMITS,
  type Display,
  type DisplayBlock,
  display,
  type MarkdownDisplayBlock,
  markdown,
  withDisplay,
} from "./display.js";
export {
  EmbeddingsClient,
  EmbeddingsError,
  type EmbeddingsOptions,
  type EmbeddingsResult,
} from "./embeddings.js";
export type { CallOptions } from "./family.js";
export {
  type FileDownloadOptions,
  type FileDownloadUrl,
  type FileInfo,
  type FileListOptions,
  FilesClient,
  type FileUploadBeginOptions,
  type FileUploadCompleteOptions,
  type FileUploadOptions,
  type FileUploadResult,
  type FileUploadTicket,
} from "./files.js";
export type { HostClients } from "./host-clients.js";
export {
  ImageClient,
  type ImageEditRequest,
  ImageError,
  type ImageGenerateRequest,
  type ImageResult,
} from "./image.js";
export {
  type CreateMessageRequest,
  type CreateMessageResult,
  type ModelPreferences,
  type ResponseFormat,
  SamplingClient,
  SamplingError,
  type SamplingMessage,
  type SamplingRole,
  type TextContent,
} from "./sampling.js";
export {
  DEFAULT_STORAGE_SCOPE,
  type ScopeOptions,
  StorageClient,
  type StorageDeleteOptions,
  type StorageEntry,
  StorageError,
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
  type UploadBytesRequest,
  UploadClient,
  UploadError,
  type UploadFileOptions,
  type UploadNegotiation,
} from "./upload.js";
