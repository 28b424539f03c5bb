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

/**
 * How deeply invoke `arguments` may nest: objects and arrays count one level each, the
 * `arguments` object itself included. Deeper arguments are answered -32602 before any
 * tool code (or recursive validation) sees them.
 */
export const MAX_ARGUMENT_DEPTH = 64;
/** Echoed input (a tool name, an argument name) is cut to this many characters in errors. */
export const ERROR_ECHO_MAX_CHARS = 200;
/** An invalid-params error lists at most this many issues in `error.data.issues`. */
export const MAX_REPORTED_ISSUES = 100;
/** Error messages are cut to this many characters. */
export const ERROR_MESSAGE_MAX_CHARS = 8_192;
/**
 * How deeply a host's reply to a reverse call may nest before it is rejected as malformed:
 * far beyond real data, and well under the depth at which serializing it again (as a tool
 * result) would overflow the stack.
 */
export const MAX_REPLY_DEPTH = 512;
