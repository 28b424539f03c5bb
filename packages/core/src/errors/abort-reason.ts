/**
 * The reason an aborted signal carries, as an Error: the reason itself when it is one
 * (an `AbortSignal.timeout` TimeoutError, a caller's own error), else an `AbortError`
 * whose message is the reason's text.
 */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error(reason === undefined ? "This operation was aborted" : String(reason));
  error.name = "AbortError";
  return error;
}
