import { CityNotFoundError } from "../../errors/city-not-found-error.js";
import { UpstreamError } from "../../errors/upstream-error.js";
import { getJson } from "../../http/get-json.js";
import type { CurrentReport, ForecastReport } from "../../model/report.js";
import type { UnitSystem } from "../../model/units.js";
import type { RequestScope, WeatherProvider } from "../provider.js";
import { parseOwmCurrent, parseOwmForecast } from "./parse.js";
import { owmUrl } from "./urls.js";

/** The credential holding the OpenWeatherMap key. */
export const WEATHER_API_KEY = "WEATHER_API_KEY";

/** OpenWeatherMap's free 5 day / 3 hour forecast covers this many days. */
export const OWM_FORECAST_DAYS = 5;

const AUTH_HINT = `check the ${WEATHER_API_KEY} credential (a new OpenWeatherMap key can take a few hours to become active)`;

/**
 * OpenWeatherMap (API 2.5, with a key): `weather` for current conditions and `forecast`
 * (5 days in 3-hour steps) folded into days — one request per tool call. The key travels
 * only in the request URL; every message and log line has it redacted.
 */
export class OpenWeatherMapProvider implements WeatherProvider {
  readonly name = "OpenWeatherMap" as const;

  constructor(
    private readonly base: URL,
    private readonly apiKey: string,
  ) {}

  async current(city: string, units: UnitSystem, scope: RequestScope): Promise<CurrentReport> {
    const body = await this.get(owmUrl(this.base, "weather", city, units, this.apiKey), city, scope);
    const { place, current } = parseOwmCurrent(body, units);
    return { provider: this.name, units, place, current };
  }

  async forecast(
    city: string,
    days: number,
    units: UnitSystem,
    scope: RequestScope,
  ): Promise<ForecastReport> {
    const body = await this.get(owmUrl(this.base, "forecast", city, units, this.apiKey), city, scope);
    const parsed = parseOwmForecast(body, days, units);
    const report: ForecastReport = { provider: this.name, units, place: parsed.place, days: parsed.days };
    if (parsed.days.length < days) {
      report.note =
        `OpenWeatherMap's forecast covers ${OWM_FORECAST_DAYS} days in 3-hour steps: ` +
        `${parsed.days.length} of the ${days} days asked for are available`;
    }
    return report;
  }

  private async get(url: URL, city: string, scope: RequestScope): Promise<unknown> {
    try {
      return await getJson(url, {
        source: this.name,
        signal: scope.signal,
        log: scope.log,
        secrets: [this.apiKey],
        hints: { auth: AUTH_HINT },
      });
    } catch (error) {
      // OpenWeatherMap answers an unknown `q` with 404 {"cod":"404","message":"city not found"}.
      if (
        error instanceof UpstreamError &&
        error.status === 404 &&
        /city not found/i.test(error.detail ?? "")
      ) {
        throw new CityNotFoundError(city);
      }
      throw error;
    }
  }
}
