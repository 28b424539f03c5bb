/**
 * The protocol's constants under the names the reference SDKs (Python, Node) use, for code
 * ported from them. Each is an alias of this toolkit's own constant (`SamplingErrorCode`,
 * `ImageErrorCode.MAX_IMAGES`, …), so the values cannot drift; each method name must be one
 * the capability families' table lists. Exported from `@executa/core/reference`.
 */

import type { ReverseMethod } from "../wire/capability-families.js";
import {
  AgentErrorCode,
  EmbeddingsErrorCode,
  ImageErrorCode,
  SamplingErrorCode,
  StorageErrorCode,
  UploadErrorCode,
} from "../wire/error-codes.js";

export const SAMPLING_ERR_NOT_GRANTED = SamplingErrorCode.NOT_GRANTED;
export const SAMPLING_ERR_QUOTA_EXCEEDED = SamplingErrorCode.QUOTA_EXCEEDED;
export const SAMPLING_ERR_PROVIDER_ERROR = SamplingErrorCode.PROVIDER_ERROR;
export const SAMPLING_ERR_INVALID_REQUEST = SamplingErrorCode.INVALID_REQUEST;
export const SAMPLING_ERR_TIMEOUT = SamplingErrorCode.TIMEOUT;
export const SAMPLING_ERR_MAX_CALLS_EXCEEDED = SamplingErrorCode.MAX_CALLS_EXCEEDED;
export const SAMPLING_ERR_MAX_TOKENS_EXCEEDED = SamplingErrorCode.MAX_TOKENS_EXCEEDED;
export const SAMPLING_ERR_NOT_NEGOTIATED = SamplingErrorCode.NOT_NEGOTIATED;
export const SAMPLING_ERR_USER_DENIED = SamplingErrorCode.USER_DENIED;
export const SAMPLING_ERR_UNSUPPORTED_RESPONSE_FORMAT = SamplingErrorCode.UNSUPPORTED_RESPONSE_FORMAT;

export const STORAGE_ERR_NOT_GRANTED = StorageErrorCode.NOT_GRANTED;
export const STORAGE_ERR_NOT_FOUND = StorageErrorCode.NOT_FOUND;
export const STORAGE_ERR_PRECONDITION_FAILED = StorageErrorCode.PRECONDITION_FAILED;
export const STORAGE_ERR_QUOTA_EXCEEDED = StorageErrorCode.QUOTA_EXCEEDED;
export const STORAGE_ERR_VALUE_TOO_LARGE = StorageErrorCode.VALUE_TOO_LARGE;
export const STORAGE_ERR_RATE_LIMITED = StorageErrorCode.RATE_LIMITED;
export const STORAGE_ERR_INVALID_PATH = StorageErrorCode.INVALID_PATH;
export const STORAGE_ERR_INVALID_REQUEST = StorageErrorCode.INVALID_REQUEST;
export const STORAGE_ERR_UPSTREAM = StorageErrorCode.UPSTREAM;
export const STORAGE_ERR_TIMEOUT = StorageErrorCode.TIMEOUT;

export const AGENT_ERR_NOT_GRANTED = AgentErrorCode.NOT_GRANTED;
export const AGENT_ERR_SESSION_NOT_FOUND = AgentErrorCode.SESSION_NOT_FOUND;
export const AGENT_ERR_INVALID_REQUEST = AgentErrorCode.INVALID_REQUEST;
export const AGENT_ERR_SUBMODE_MISMATCH = AgentErrorCode.SUBMODE_MISMATCH;
export const AGENT_ERR_QUOTA_EXCEEDED = AgentErrorCode.QUOTA_EXCEEDED;
export const AGENT_ERR_PROVIDER_ERROR = AgentErrorCode.PROVIDER_ERROR;
export const AGENT_ERR_RATE_LIMITED = AgentErrorCode.RATE_LIMITED;
export const AGENT_ERR_TOOL_NOT_GRANTED = AgentErrorCode.TOOL_NOT_GRANTED;

export const IMAGE_ERR_NOT_GRANTED = ImageErrorCode.NOT_GRANTED;
export const IMAGE_ERR_QUOTA_EXCEEDED = ImageErrorCode.QUOTA_EXCEEDED;
export const IMAGE_ERR_PROVIDER_ERROR = ImageErrorCode.PROVIDER_ERROR;
export const IMAGE_ERR_INVALID_REQUEST = ImageErrorCode.INVALID_REQUEST;
export const IMAGE_ERR_TIMEOUT = ImageErrorCode.TIMEOUT;
export const IMAGE_ERR_MAX_IMAGES_EXCEEDED = ImageErrorCode.MAX_IMAGES;
export const IMAGE_ERR_NOT_NEGOTIATED = ImageErrorCode.NOT_NEGOTIATED;
export const IMAGE_ERR_USER_DENIED = ImageErrorCode.USER_DENIED;
export const IMAGE_ERR_NO_MODEL_AVAILABLE = ImageErrorCode.NO_MODEL;
export const IMAGE_ERR_STORAGE_ERROR = ImageErrorCode.STORAGE_ERROR;
export const IMAGE_ERR_EDIT_NOT_SUPPORTED = ImageErrorCode.EDIT_NOT_SUPPORTED;
export const IMAGE_ERR_MASK_UNSUPPORTED = ImageErrorCode.MASK_UNSUPPORTED;
export const IMAGE_ERR_N_UNSUPPORTED = ImageErrorCode.N_UNSUPPORTED;
export const IMAGE_ERR_REFERENCE_FETCH_FAILED = ImageErrorCode.REFERENCE_FETCH_FAILED;

export const UPLOAD_ERR_NOT_GRANTED = UploadErrorCode.NOT_GRANTED;
export const UPLOAD_ERR_QUOTA_EXCEEDED = UploadErrorCode.QUOTA_EXCEEDED;
export const UPLOAD_ERR_INVALID_REQUEST = UploadErrorCode.INVALID_REQUEST;
export const UPLOAD_ERR_TOO_LARGE = UploadErrorCode.TOO_LARGE;
export const UPLOAD_ERR_MIME_REJECTED = UploadErrorCode.MIME_REJECTED;
export const UPLOAD_ERR_PURPOSE_REJECTED = UploadErrorCode.PURPOSE_REJECTED;
export const UPLOAD_ERR_STORAGE_ERROR = UploadErrorCode.STORAGE_ERROR;
export const UPLOAD_ERR_TIMEOUT = UploadErrorCode.TIMEOUT;
export const UPLOAD_ERR_USER_DENIED = UploadErrorCode.USER_DENIED;
export const UPLOAD_ERR_NOT_NEGOTIATED = UploadErrorCode.NOT_NEGOTIATED;
export const UPLOAD_ERR_MAX_FILES_EXCEEDED = UploadErrorCode.MAX_FILES;
export const UPLOAD_ERR_NOT_FOUND = UploadErrorCode.NOT_FOUND;
export const UPLOAD_ERR_PRESIGN_FAILED = UploadErrorCode.PRESIGN_FAILED;

export const EMBED_ERR_NOT_GRANTED = EmbeddingsErrorCode.NOT_GRANTED;
export const EMBED_ERR_QUOTA_EXCEEDED = EmbeddingsErrorCode.QUOTA_EXCEEDED;
export const EMBED_ERR_PROVIDER_ERROR = EmbeddingsErrorCode.PROVIDER_ERROR;
export const EMBED_ERR_INVALID_REQUEST = EmbeddingsErrorCode.INVALID_REQUEST;
export const EMBED_ERR_TIMEOUT = EmbeddingsErrorCode.TIMEOUT;
export const EMBED_ERR_MAX_TOKENS_EXCEEDED = EmbeddingsErrorCode.MAX_TOKENS;
export const EMBED_ERR_NOT_NEGOTIATED = EmbeddingsErrorCode.NOT_NEGOTIATED;
export const EMBED_ERR_USER_DENIED = EmbeddingsErrorCode.USER_DENIED;

export const METHOD_SAMPLING_CREATE_MESSAGE = "sampling/createMessage" satisfies ReverseMethod;
export const METHOD_STORAGE_GET = "storage/get" satisfies ReverseMethod;
export const METHOD_STORAGE_SET = "storage/set" satisfies ReverseMethod;
export const METHOD_STORAGE_DELETE = "storage/delete" satisfies ReverseMethod;
export const METHOD_STORAGE_LIST = "storage/list" satisfies ReverseMethod;
export const METHOD_FILES_UPLOAD_BEGIN = "files/upload_begin" satisfies ReverseMethod;
export const METHOD_FILES_UPLOAD_COMPLETE = "files/upload_complete" satisfies ReverseMethod;
export const METHOD_FILES_DOWNLOAD_URL = "files/download_url" satisfies ReverseMethod;
export const METHOD_FILES_LIST = "files/list" satisfies ReverseMethod;
export const METHOD_FILES_DELETE = "files/delete" satisfies ReverseMethod;
export const METHOD_HOST_UPLOAD_FILE = "host/uploadFile" satisfies ReverseMethod;
export const METHOD_IMAGE_GENERATE = "image/generate" satisfies ReverseMethod;
export const METHOD_IMAGE_EDIT = "image/edit" satisfies ReverseMethod;
export const METHOD_EMBEDDINGS_CREATE = "embeddings/create" satisfies ReverseMethod;
export const METHOD_AGENT_SESSION_CREATE = "agent/session.create" satisfies ReverseMethod;
export const METHOD_AGENT_SESSION_RUN = "agent/session.run" satisfies ReverseMethod;
export const METHOD_AGENT_SESSION_CANCEL = "agent/session.cancel" satisfies ReverseMethod;
export const METHOD_AGENT_SESSION_HISTORY = "agent/session.history" satisfies ReverseMethod;
export const METHOD_AGENT_SESSION_DELETE = "agent/session.delete" satisfies ReverseMethod;
export const METHOD_AGENT_SESSION_LIST = "agent/session.list" satisfies ReverseMethod;
export const METHOD_AGENT_SESSION_REFRESH = "agent/session.refresh" satisfies ReverseMethod;
export const METHOD_AGENT_COMPLETE = "agent/complete" satisfies ReverseMethod;
