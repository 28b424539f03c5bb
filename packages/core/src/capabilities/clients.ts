/**
 * The client of each reverse-capability family, with its error: one line per family.
 * `ctx.host` finds a family's client here by name (`image` → `ImageClient`), so a family
 * of the capability table without its line here does not compile; `@executa/core` and
 * `@executa/decorators` export this module whole.
 */

export { AgentClient, AgentError } from "./agent.js";
export { EmbeddingsClient, EmbeddingsError } from "./embeddings.js";
export { FilesClient } from "./files.js";
export { ImageClient, ImageError } from "./image.js";
export { SamplingClient, SamplingError } from "./sampling.js";
export { StorageClient, StorageError } from "./storage.js";
export { UploadClient, UploadError } from "./upload.js";
