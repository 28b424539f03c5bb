import { ConfigError } from "../errors/config-error.js";

/** The environment variables that move the plugin to another server (a self-hosted Open-Meteo, a proxy). */
export const ENDPOINT_VARIABLES = {
  geocoding: "WEATHER_GEOCODING_URL",
  forecast: "WEATHER_FORECAST_URL",
  openWeatherMap: "WEATHER_OWM_URL",
} as const;

/** Where requests go when the environment does not say otherwise. */
export const DEFAULT_ENDPOINTS = {
  geocoding: "https://geocoding-api.open-meteo.com/v1/search",
  forecast: "https://api.open-meteo.com/v1/forecast",
  openWeatherMap: "https://api.openweathermap.org/data/2.5",
} as const;

/** The three base URLs. */
export interface Endpoints {
  /** Open-Meteo geocoding search. */
  geocoding: URL;
  /** Open-Meteo forecast. */
  forecast: URL;
  /** OpenWeatherMap API 2.5 base; `weather` and `forecast` live under it. */
  openWeatherMap: URL;
}

/**
 * The endpoints from the environment (unset or empty → default). Throws a
 * {@link ConfigError} naming the variable when a value is not an http(s) URL.
 */
export function readEndpoints(env: Readonly<Record<string, string | undefined>> = process.env): Endpoints {
  const read = (key: keyof Endpoints): URL => {
    const variable = ENDPOINT_VARIABLES[key];
    const raw = env[variable]?.trim();
    const value = raw ? raw : DEFAULT_ENDPOINTS[key];
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new ConfigError(`${variable} is not a URL: ${JSON.stringify(value)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new ConfigError(`${variable} must be an http:// or https:// URL, got ${JSON.stringify(value)}`);
    }
    return url;
  };
  return { geocoding: read("geocoding"), forecast: read("forecast"), openWeatherMap: read("openWeatherMap") };
}

/**
 * A URL safe to show (health details, logs): scheme, host and path only — no user info
 * and no query, which could carry a proxy's credentials.
 */
export function displayUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** `base` with `segment` appended to its path, keeping its query (e.g. `…/data/2.5` + `weather`). */
export function joinPath(base: URL, segment: string): URL {
  const url = new URL(base.href);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/${segment}`;
  return url;
}
