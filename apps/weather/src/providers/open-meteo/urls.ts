import type { Place } from "../../model/report.js";
import type { UnitSystem } from "../../model/units.js";

/** Current variables requested from the forecast API. */
export const CURRENT_VARIABLES = [
  "temperature_2m",
  "relative_humidity_2m",
  "apparent_temperature",
  "precipitation",
  "weather_code",
  "wind_speed_10m",
  "wind_direction_10m",
] as const;

/** Daily variables requested from the forecast API. */
export const DAILY_VARIABLES = [
  "weather_code",
  "temperature_2m_max",
  "temperature_2m_min",
  "precipitation_sum",
  "precipitation_probability_max",
  "wind_speed_10m_max",
] as const;

/** Geocoding search for the best match of `city`: `?name=…&count=1&language=en&format=json`. */
export function geocodingUrl(base: URL, city: string): URL {
  const url = new URL(base.href);
  url.searchParams.set("name", city);
  url.searchParams.set("count", "1");
  url.searchParams.set("language", "en");
  url.searchParams.set("format", "json");
  return url;
}

function forecastBase(base: URL, place: Place, units: UnitSystem): URL {
  const url = new URL(base.href);
  url.searchParams.set("latitude", String(place.latitude));
  url.searchParams.set("longitude", String(place.longitude));
  // Local times and local days, in the place's own time zone.
  url.searchParams.set("timezone", "auto");
  if (units === "imperial") {
    url.searchParams.set("temperature_unit", "fahrenheit");
    url.searchParams.set("wind_speed_unit", "mph");
    url.searchParams.set("precipitation_unit", "inch");
  } else {
    url.searchParams.set("wind_speed_unit", "kmh");
  }
  return url;
}

/** Forecast request for current conditions. */
export function currentUrl(base: URL, place: Place, units: UnitSystem): URL {
  const url = forecastBase(base, place, units);
  url.searchParams.set("current", CURRENT_VARIABLES.join(","));
  return url;
}

/** Forecast request for `days` daily aggregates, today first. */
export function dailyUrl(base: URL, place: Place, days: number, units: UnitSystem): URL {
  const url = forecastBase(base, place, units);
  url.searchParams.set("daily", DAILY_VARIABLES.join(","));
  url.searchParams.set("forecast_days", String(days));
  return url;
}
