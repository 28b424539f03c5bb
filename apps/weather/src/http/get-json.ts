import type { Logger } from "@executa/core";
import { UpstreamError } from "../errors/upstream-error.js";
import type { ProviderName } from "../model/report.js";
import { type FailureHints, httpFailure } from "./http-failure.js";
import { BodyTooLargeError, readBody } from "./read-body.js";
import { redact } from "./redact.js";

/** Sent with every request, so a service operator can tell who calls. */
export const USER_AGENT = "executa-weather-sample/1.0";

/** How one GET runs. */
export interface GetJsonOptions {
  /** The service, named in every error message. */
  source: ProviderName;
  /** Aborts the request (the invoke's deadline, or shutdown). */
  signal: AbortSignal;
  /** Values that must never appear in a message or a log line (the API key). */
  secrets?: readonly string[];
  log?: Logger;
  hints?: FailureHints;
}

/**
 * GETs `url` with the global `fetch` and returns the parsed JSON of a 2xx answer.
 *
 * Every failure is an {@link UpstreamError} (answered `success: false`): unreachable,
 * aborted by `signal`, a non-2xx status (see `httpFailure`), a body over 1 MiB, or a body
 * that is not JSON. Messages name the host, never the query string (which may hold the
 * key), and `secrets` are redacted from them.
 */
export async function getJson(url: URL, options: GetJsonOptions): Promise<unknown> {
  const { source, signal } = options;
  const secrets = options.secrets ?? [];
  const fail = (message: string, status?: number): UpstreamError =>
    new UpstreamError(
      redact(message, secrets),
      status === undefined ? { source } : { source, http_status: status },
    );
  const where = `${url.host}${url.pathname}`;
  options.log?.debug(`GET ${redact(where, secrets)}`);

  let response: Response;
  try {
    response = await fetch(url, {
      signal,
      headers: { accept: "application/json", "user-agent": USER_AGENT },
    });
  } catch (error) {
    if (signal.aborted) throw fail(`the request to ${source} was aborted: ${reasonOf(signal)}`);
    throw fail(`could not reach ${source} at ${url.host}: ${networkReason(error)}`);
  }

  let text: string;
  try {
    text = await readBody(response);
  } catch (error) {
    if (signal.aborted) throw fail(`the request to ${source} was aborted: ${reasonOf(signal)}`);
    if (error instanceof BodyTooLargeError) {
      throw fail(`${source} answered with a body larger than ${error.limit} bytes`, response.status);
    }
    throw fail(`${source}'s answer broke off: ${networkReason(error)}`, response.status);
  }

  if (!response.ok) {
    const failure = httpFailure(
      source,
      {
        status: response.status,
        statusText: response.statusText,
        body: text,
        retryAfter: response.headers.get("retry-after"),
      },
      options.hints,
    );
    const message = redact(failure.message, secrets);
    options.log?.info(`${redact(where, secrets)}: ${message}`);
    throw new UpstreamError(message, failure.data, failure.detail && redact(failure.detail, secrets));
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const type = response.headers.get("content-type") ?? "no content type";
    throw fail(
      `${source} answered with something that is not JSON (HTTP ${response.status}, ${type})`,
      response.status,
    );
  }
}

function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message;
  return reason === undefined ? "aborted" : String(reason);
}

/** undici's "fetch failed" hides the useful part (ECONNREFUSED, ENOTFOUND, …) in `cause`. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof Error && cause.message) return cause.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
