import type { Logger } from "@executa/core";
import type { CurrentReport, ForecastReport, ProviderName } from "../model/report.js";
import type { UnitSystem } from "../model/units.js";

/** What one request needs from the invoke: its abort signal and its logger. */
export interface RequestScope {
  signal: AbortSignal;
  log?: Logger;
}

/**
 * A weather service. Both answer in the same units and shapes, so the tools do not care
 * which one runs. Failures are `ToolError`s: `CityNotFoundError`, `UpstreamError`.
 */
export interface WeatherProvider {
  readonly name: ProviderName;
  current(city: string, units: UnitSystem, scope: RequestScope): Promise<CurrentReport>;
  /** `days` from today, 1–7; a provider that covers fewer says so in `note`. */
  forecast(city: string, days: number, units: UnitSystem, scope: RequestScope): Promise<ForecastReport>;
}
