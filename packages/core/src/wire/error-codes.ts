/**
 * Every error code family of the protocol (executa-protocol.md, protocol-v2-notes.md),
 * as named constants.
 */

/** Base JSON-RPC codes. */
export const JsonRpcErrorCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

/**
 * Implementation-defined server errors (-32000..-32099) this toolkit answers with.
 * Chosen at the edges of the range so they never collide with a reverse-capability family.
 */
export const ServerErrorCode = {
  /** The invoke's deadline or the tool's declared timeout passed before it settled. */
  TOOL_TIMEOUT: -32000,
  /** The plugin is shutting down and could not finish this request. */
  SHUTTING_DOWN: -32099,
} as const;

/** `data.errorCode` values of a host's -32602 routing errors. */
export const RoutingErrorCode = {
  UNKNOWN_INVOKE_CONTEXT: "UNKNOWN_INVOKE_CONTEXT",
  MISSING_INVOKE_CONTEXT: "MISSING_INVOKE_CONTEXT",
} as const;

export const SamplingErrorCode = {
  NOT_GRANTED: -32001,
  QUOTA_EXCEEDED: -32002,
  PROVIDER_ERROR: -32003,
  INVALID_REQUEST: -32004,
  TIMEOUT: -32005,
  MAX_CALLS_EXCEEDED: -32006,
  MAX_TOKENS_EXCEEDED: -32007,
  NOT_NEGOTIATED: -32008,
  USER_DENIED: -32009,
  UNSUPPORTED_RESPONSE_FORMAT: -32010,
} as const;

/** Codes shared by `storage/*` and `files/*`. */
export const StorageErrorCode = {
  NOT_GRANTED: -32021,
  NOT_FOUND: -32022,
  PRECONDITION_FAILED: -32023,
  QUOTA_EXCEEDED: -32024,
  VALUE_TOO_LARGE: -32025,
  RATE_LIMITED: -32026,
  INVALID_PATH: -32027,
  INVALID_REQUEST: -32028,
  UPSTREAM: -32029,
  /** Raised locally by the SDK. */
  TIMEOUT: -32030,
} as const;

export const AgentErrorCode = {
  NOT_GRANTED: -32041,
  SESSION_NOT_FOUND: -32042,
  INVALID_REQUEST: -32043,
  SUBMODE_MISMATCH: -32044,
  QUOTA_EXCEEDED: -32045,
  PROVIDER_ERROR: -32046,
  RATE_LIMITED: -32047,
  TOOL_NOT_GRANTED: -32048,
} as const;

export const ImageErrorCode = {
  NOT_GRANTED: -32101,
  QUOTA_EXCEEDED: -32102,
  PROVIDER_ERROR: -32103,
  INVALID_REQUEST: -32104,
  TIMEOUT: -32105,
  MAX_IMAGES: -32106,
  NOT_NEGOTIATED: -32107,
  USER_DENIED: -32108,
  NO_MODEL: -32109,
  STORAGE_ERROR: -32110,
  EDIT_NOT_SUPPORTED: -32311,
  MASK_UNSUPPORTED: -32312,
  N_UNSUPPORTED: -32313,
  REFERENCE_FETCH_FAILED: -32314,
} as const;

export const UploadErrorCode = {
  NOT_GRANTED: -32201,
  QUOTA_EXCEEDED: -32202,
  INVALID_REQUEST: -32203,
  TOO_LARGE: -32204,
  MIME_REJECTED: -32205,
  PURPOSE_REJECTED: -32206,
  STORAGE_ERROR: -32207,
  TIMEOUT: -32208,
  USER_DENIED: -32209,
  NOT_NEGOTIATED: -32210,
  MAX_FILES: -32211,
  NOT_FOUND: -32212,
  PRESIGN_FAILED: -32213,
} as const;

export const EmbeddingsErrorCode = {
  NOT_GRANTED: -32501,
  QUOTA_EXCEEDED: -32502,
  PROVIDER_ERROR: -32503,
  INVALID_REQUEST: -32504,
  TIMEOUT: -32505,
  MAX_TOKENS: -32506,
  NOT_NEGOTIATED: -32507,
  USER_DENIED: -32508,
} as const;
