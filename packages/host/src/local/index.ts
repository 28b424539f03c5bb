/**
 * `@executa/host/local` — the local providers a development host answers a plugin's
 * reverse calls with: storage on SQLite (the runtime's own where it has one, else compiled
 * to WebAssembly: no native addon), files and uploads over loopback HTTP, and scripted /
 * echo / relayed sampling. Kept apart from
 * `@executa/host` so that code which only drives a plugin never loads the database.
 * @packageDocumentation
 */

export { AgentProvider, type AgentProviderOptions } from "./agent/agent-provider.js";
export {
  type AgentHistoryMessage,
  MAX_SESSION_LIFETIME_S,
} from "./agent/agent-sessions.js";
export { type AgentRunFrame, NO_TOOLS_AVAILABLE } from "./agent/run-frames.js";
export { type Clock, systemClock } from "./clock.js";
export {
  createLocalProviders,
  type LocalProviders,
  type LocalProvidersOptions,
} from "./create-local-providers.js";
export {
  DEFAULT_EMBEDDING_DIMENSIONS,
  DEFAULT_EMBEDDING_MODEL,
  type EmbeddingsLimits,
  EmbeddingsProvider,
  type EmbeddingsProviderOptions,
} from "./embeddings/embeddings-provider.js";
export { featureHashEmbedding } from "./embeddings/feature-hash.js";
export {
  DEFAULT_MAX_OBJECT_BYTES,
  FilesProvider,
  type FilesProviderOptions,
} from "./files-provider.js";
export { FixtureError, type FixtureLine } from "./fixtures/fixture-line.js";
export { FixtureSet, wireMethodsOf } from "./fixtures/fixture-set.js";
export { checkFixture, loadFixtures, parseFixtures } from "./fixtures/load-fixtures.js";
export { FixtureProvider, withFixtures } from "./fixtures/with-fixtures.js";
export { BlobDir, type ReceivedBlob } from "./http/blob-dir.js";
export { LoopbackServer, type Route, type RouteHandler } from "./http/loopback-server.js";
export { type SignatureCheck, UrlSigner } from "./http/url-signer.js";
export {
  type ImageLimits,
  ImageProvider,
  type ImageProviderOptions,
  LOCAL_IMAGE_MODEL,
} from "./image/image-provider.js";
export { encodePng, type PixelSource } from "./image/png.js";
export * from "./mcp-fallback/index.js";
export { EchoResponder } from "./sampling/echo-responder.js";
export { OpenAiRelayResponder, type RelayConfig } from "./sampling/openai-relay.js";
export {
  type ResponseFormatParam,
  readSamplingRequest,
  type SamplingMessage,
  type SamplingReply,
  type SamplingRequest,
  type SamplingResponder,
} from "./sampling/request.js";
export {
  createResponder,
  type ModelTraits,
  type SamplingConfig,
  samplingConfigFromEnv,
} from "./sampling/sampling-config.js";
export { type SamplingLimits, SamplingProvider } from "./sampling/sampling-provider.js";
export { parseScript, ScriptResponder, type ScriptRule } from "./sampling/script-responder.js";
export type { StructuredFormat } from "./sampling/structured-output.js";
export { type ResolvedScope, STORAGE_SCOPES, type StorageScope } from "./scope.js";
export {
  DEFAULT_MAX_VALUE_BYTES,
  StorageProvider,
  type StorageProviderOptions,
} from "./storage-provider.js";
export type { EntryKind } from "./store/entry-kind.js";
export type {
  DeleteOutcome,
  Entry,
  EntryPage,
  EntryStore,
  EntryWrite,
  ListQuery,
  MaybePromise,
  PreconditionFailure,
  PutOutcome,
} from "./store/entry-store.js";
export { LocalStore, type LocalStoreOptions } from "./store/local-store.js";
export { builtinSqliteDriver } from "./store/sqlite/builtin-driver.js";
export { loadSqliteDriver, loadWasmSqliteDriver } from "./store/sqlite/load-driver.js";
export type {
  SqliteDriver,
  SqliteDriverName,
  SqlRow,
  SqlValue,
  StoreDatabase,
  StoreOpenOptions,
  StoreSync,
} from "./store/sqlite/store-database.js";
export {
  DEFAULT_MAX_UPLOAD_BYTES,
  UploadProvider,
  type UploadProviderOptions,
} from "./upload-provider.js";
