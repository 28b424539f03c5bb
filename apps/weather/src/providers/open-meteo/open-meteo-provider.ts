import { getJson } from "../../http/get-json.js";
import type { CurrentReport, ForecastReport, Place } from "../../model/report.js";
import type { UnitSystem } from "../../model/units.js";
import type { RequestScope, WeatherProvider } from "../provider.js";
import { parseCurrent, parseDaily, parseGeocoding, withForecastTimezone } from "./parse.js";
import { currentUrl, dailyUrl, geocodingUrl } from "./urls.js";

/** Open-Meteo's base URLs. */
export interface OpenMeteoEndpoints {
  geocoding: URL;
  forecast: URL;
}

/**
 * Open-Meteo (no key): the city through the geocoding search, then the forecast API for
 * its coordinates — two requests per tool call.
 */
export class OpenMeteoProvider implements WeatherProvider {
  readonly name = "Open-Meteo" as const;

  constructor(private readonly endpoints: OpenMeteoEndpoints) {}

  async current(city: string, units: UnitSystem, scope: RequestScope): Promise<CurrentReport> {
    const place = await this.geocode(city, scope);
    const body = await this.get(currentUrl(this.endpoints.forecast, place, units), scope);
    return {
      provider: this.name,
      units,
      place: withForecastTimezone(place, body),
      current: parseCurrent(body),
    };
  }

  async forecast(
    city: string,
    days: number,
    units: UnitSystem,
    scope: RequestScope,
  ): Promise<ForecastReport> {
    const place = await this.geocode(city, scope);
    const body = await this.get(dailyUrl(this.endpoints.forecast, place, days, units), scope);
    const daily = parseDaily(body, days);
    const report: ForecastReport = {
      provider: this.name,
      units,
      place: withForecastTimezone(place, body),
      days: daily,
    };
    if (daily.length < days)
      report.note = `Open-Meteo returned ${daily.length} of the ${days} days asked for`;
    return report;
  }

  private async geocode(city: string, scope: RequestScope): Promise<Place> {
    return parseGeocoding(await this.get(geocodingUrl(this.endpoints.geocoding, city), scope), city);
  }

  private get(url: URL, scope: RequestScope): Promise<unknown> {
    return getJson(url, { source: this.name, signal: scope.signal, log: scope.log });
  }
}
