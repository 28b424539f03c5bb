/** Sizes and timeouts the protocol fixes. */

const MiB = 1024 * 1024;

/** A single frame (one line) is at most 16 MiB. */
export const MAX_FRAME_BYTES = 16 * MiB;
/** Responses larger than this travel by file transport by default. */
export const FILE_TRANSPORT_THRESHOLD_BYTES = 512 * 1024;
/** App-facing invoke results beyond this hit the host's `result_too_large` contract. */
export const APP_RESULT_LIMIT_BYTES = 4 * MiB;
/** Raw bytes allowed in an inline `host/uploadFile`. */
export const INLINE_UPLOAD_MAX_BYTES = 8 * MiB;

export const DESCRIBE_TIMEOUT_MS = 5_000;
export const HEALTH_TIMEOUT_MS = 3_000;
export const DEFAULT_INVOKE_TIMEOUT_S = 60;
/** The host waits this long after SIGTERM before SIGKILL. */
export const HOST_KILL_GRACE_MS = 5_000;
/** How long a stopping plugin lets in-flight invokes finish (under the host's 5 s). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 4_000;
/** Invokes that run at once before further ones queue. */
export const DEFAULT_CONCURRENCY = 16;
