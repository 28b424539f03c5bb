/** The outcome of a presigned PUT that the storage answered with 2xx. */
export interface PutOutcome {
  status: number;
  /** The `ETag` response header, when the storage sent one. */
  etag: string | undefined;
}

/** Why a presigned PUT failed. */
export type PutFailure =
  | { kind: "timeout" }
  | { kind: "status"; status: number; body: string }
  | { kind: "network"; message: string }
  | { kind: "bad-url"; url: string };

/** Thrown by {@link putBytes}; callers turn it into their family's error. */
export class PutError extends Error {
  constructor(
    readonly failure: PutFailure,
    options?: { cause?: unknown },
  ) {
    super(describeFailure(failure), options);
    this.name = "PutError";
  }
}

/**
 * PUTs `body` to a presigned `url` with exactly the `headers` the host returned (they
 * are part of the signature), using the global fetch. Bounded by `timeoutMs`; aborted by
 * `signal` (then it rejects with the signal's reason).
 */
export async function putBytes(
  url: string,
  body: Uint8Array,
  headers: Record<string, string> | undefined,
  budget: { timeoutMs: number; signal: AbortSignal },
): Promise<PutOutcome> {
  const parsed = presignedUrl(url);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), budget.timeoutMs);
  const signal = AbortSignal.any([budget.signal, timeout.signal]);
  try {
    const response = await fetch(parsed, { method: "PUT", body, headers: headers ?? {}, signal });
    const text = await response.text();
    if (!response.ok)
      throw new PutError({ kind: "status", status: response.status, body: text.slice(0, 500) });
    return { status: response.status, etag: response.headers.get("etag") ?? undefined };
  } catch (error) {
    throw putRejection(error, budget.signal, timeout.signal);
  } finally {
    clearTimeout(timer);
  }
}

/** `url` as an http(s) URL, or a `bad-url` {@link PutError}. */
function presignedUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PutError({ kind: "bad-url", url });
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw new PutError({ kind: "bad-url", url });
  return parsed;
}

/**
 * What a failed PUT rejects with: the caller's abort reason when the caller aborted,
 * else a {@link PutError} saying whether it timed out or the network failed.
 */
function putRejection(error: unknown, callerSignal: AbortSignal, timeoutSignal: AbortSignal): unknown {
  if (error instanceof PutError) return error;
  if (callerSignal.aborted) return callerSignal.reason instanceof Error ? callerSignal.reason : error;
  if (timeoutSignal.aborted) return new PutError({ kind: "timeout" });
  const message = error instanceof Error ? describeCause(error) : String(error);
  return new PutError({ kind: "network", message }, { cause: error });
}

function describeFailure(failure: PutFailure): string {
  switch (failure.kind) {
    case "timeout":
      return "the upload PUT timed out";
    case "status":
      return `the upload PUT was answered with HTTP ${failure.status}${failure.body ? `: ${failure.body}` : ""}`;
    case "network":
      return `the upload PUT failed: ${failure.message}`;
    case "bad-url":
      return `the host returned an unusable upload URL: ${JSON.stringify(failure.url)}`;
  }
}

/** The bytes of a payload given as bytes or as text (UTF-8). */
export function toBytes(content: Uint8Array | string): Uint8Array {
  return typeof content === "string" ? new TextEncoder().encode(content) : content;
}

/** fetch reports "fetch failed" and keeps the real reason (ECONNREFUSED, ...) in `cause`. */
function describeCause(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}
