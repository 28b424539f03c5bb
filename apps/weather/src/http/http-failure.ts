import { UpstreamError } from "../errors/upstream-error.js";
import type { ProviderName } from "../model/report.js";
import { retryAfterSeconds } from "./retry-after.js";

/** A non-2xx answer, as {@link httpFailure} needs it. */
export interface FailedResponse {
  status: number;
  statusText: string;
  /** The body as text (may be empty or not JSON). */
  body: string;
  retryAfter: string | null;
}

/** Hints a provider adds to particular failures. */
export interface FailureHints {
  /** Appended to 401/403 messages, e.g. which credential to check. */
  auth?: string;
}

const DETAIL_MAX_CHARS = 200;

/**
 * The service's own explanation in an error body: Open-Meteo's `{ error: true, reason }`,
 * OpenWeatherMap's `{ cod, message }`, or a short plain-text body. Undefined when none.
 */
export function failureDetail(body: string): string | undefined {
  const text = body.trim();
  if (text === "") return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null) {
      const record = parsed as Record<string, unknown>;
      for (const key of ["reason", "message", "error"]) {
        const value = record[key];
        if (typeof value === "string" && value.trim() !== "") return clip(value);
      }
    }
    return undefined;
  } catch {
    // An HTML error page says nothing useful to an LLM.
    if (text.startsWith("<")) return undefined;
    return clip(text);
  }
}

function clip(text: string): string {
  // No final period: the detail is followed by "; what to do".
  const line = text.replace(/\s+/g, " ").trim().replace(/\.$/, "");
  return line.length > DETAIL_MAX_CHARS ? `${line.slice(0, DETAIL_MAX_CHARS - 1)}…` : line;
}

/**
 * The {@link UpstreamError} for a non-2xx answer: 401/403 a refused key, 429 rate limited
 * (with `Retry-After`), 5xx unavailable, other statuses a rejected request — each naming
 * the service, the status and the service's own reason.
 */
export function httpFailure(
  source: ProviderName,
  response: FailedResponse,
  hints: FailureHints = {},
): UpstreamError {
  const { status } = response;
  const detail = failureDetail(response.body);
  const label = `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ""}`;
  const because = detail ? `: ${detail}` : "";
  if (status === 401 || status === 403) {
    const hint = hints.auth ? `; ${hints.auth}` : "";
    return new UpstreamError(
      `${source} refused the request (${label})${because}${hint}`,
      {
        source,
        http_status: status,
      },
      detail,
    );
  }
  if (status === 429) {
    const retryAfter = retryAfterSeconds(response.retryAfter);
    const when = retryAfter === undefined ? "try again later" : `try again in ${retryAfter} s`;
    const failure = {
      source,
      http_status: status,
      ...(retryAfter === undefined ? {} : { retry_after_s: retryAfter }),
    };
    return new UpstreamError(`${source} rate limit reached (${label})${because}; ${when}`, failure, detail);
  }
  if (status >= 500) {
    return new UpstreamError(
      `${source} is unavailable (${label})${because}; try again later`,
      { source, http_status: status },
      detail,
    );
  }
  return new UpstreamError(
    `${source} rejected the request (${label})${because}`,
    {
      source,
      http_status: status,
    },
    detail,
  );
}
