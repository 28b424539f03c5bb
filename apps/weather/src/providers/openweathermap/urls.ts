import { joinPath } from "../../config/endpoints.js";
import type { UnitSystem } from "../../model/units.js";

/**
 * `{base}/{endpoint}?q={city}&units={units}&appid={key}` — current weather (`weather`) or
 * the 5 day / 3 hour forecast (`forecast`), located by OpenWeatherMap's built-in
 * geocoder, so each tool call is one request.
 */
export function owmUrl(
  base: URL,
  endpoint: "weather" | "forecast",
  city: string,
  units: UnitSystem,
  apiKey: string,
): URL {
  const url = joinPath(base, endpoint);
  url.searchParams.set("q", city);
  url.searchParams.set("units", units);
  url.searchParams.set("appid", apiKey);
  return url;
}
