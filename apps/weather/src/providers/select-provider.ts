import type { Endpoints } from "../config/endpoints.js";
import { OpenMeteoProvider } from "./open-meteo/open-meteo-provider.js";
import { OpenWeatherMapProvider } from "./openweathermap/openweathermap-provider.js";
import type { WeatherProvider } from "./provider.js";

/**
 * OpenWeatherMap when an API key is configured (a blank value counts as none),
 * otherwise Open-Meteo, which needs no key.
 */
export function selectProvider(apiKey: string | undefined, endpoints: Endpoints): WeatherProvider {
  const key = apiKey?.trim();
  return key
    ? new OpenWeatherMapProvider(endpoints.openWeatherMap, key)
    : new OpenMeteoProvider({ geocoding: endpoints.geocoding, forecast: endpoints.forecast });
}
