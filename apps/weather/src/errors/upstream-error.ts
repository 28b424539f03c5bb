import { ToolError } from "@executa/core";
import type { ProviderName } from "../model/report.js";

/** What an upstream failure tells the LLM beside the message (the result's `data`). */
export interface UpstreamFailure {
  source: ProviderName;
  /** The HTTP status, when the service answered at all. */
  http_status?: number;
  /** Seconds to wait before trying again, from a 429's `Retry-After`. */
  retry_after_s?: number;
}

/**
 * The weather service failed: unreachable, refused the key, rate limited, broken, or
 * answered something that is not the documented shape. Answered as `success: false`
 * with a message that says which and, where it helps, what to do.
 */
export class UpstreamError extends ToolError {
  override readonly name = "UpstreamError";
  declare readonly data: UpstreamFailure;
  constructor(
    message: string,
    failure: UpstreamFailure,
    /** The service's own explanation (Open-Meteo `reason`, OpenWeatherMap `message`), when it gave one. */
    readonly detail?: string,
  ) {
    super(message, failure);
  }

  /** The HTTP status, when the service answered. */
  get status(): number | undefined {
    return this.data.http_status;
  }
}
