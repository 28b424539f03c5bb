import { describe, expect, it } from "vitest";
import { DEFAULT_ENDPOINTS, displayUrl, joinPath, readEndpoints } from "../src/config/endpoints.js";
import { ConfigError } from "../src/errors/config-error.js";

describe("readEndpoints", () => {
  it("defaults to the public services; empty values count as unset", () => {
    const endpoints = readEndpoints({ WEATHER_FORECAST_URL: "  " });
    expect(endpoints.geocoding.href).toBe(DEFAULT_ENDPOINTS.geocoding);
    expect(endpoints.forecast.href).toBe(DEFAULT_ENDPOINTS.forecast);
    expect(endpoints.openWeatherMap.href).toBe(DEFAULT_ENDPOINTS.openWeatherMap);
  });

  it("takes each variable when set", () => {
    const endpoints = readEndpoints({
      WEATHER_GEOCODING_URL: "http://127.0.0.1:8080/v1/search",
      WEATHER_FORECAST_URL: "http://meteo.lan/v1/forecast",
      WEATHER_OWM_URL: "https://proxy.example/owm/data/2.5",
    });
    expect(endpoints.geocoding.host).toBe("127.0.0.1:8080");
    expect(endpoints.forecast.host).toBe("meteo.lan");
    expect(endpoints.openWeatherMap.pathname).toBe("/owm/data/2.5");
  });

  it("a value that is not an http(s) URL is a ConfigError naming the variable", () => {
    expect(() => readEndpoints({ WEATHER_OWM_URL: "api.openweathermap.org" })).toThrow(ConfigError);
    expect(() => readEndpoints({ WEATHER_OWM_URL: "api.openweathermap.org" })).toThrow(
      'WEATHER_OWM_URL is not a URL: "api.openweathermap.org"',
    );
    expect(() => readEndpoints({ WEATHER_GEOCODING_URL: "file:///etc/passwd" })).toThrow(
      "WEATHER_GEOCODING_URL must be an http:// or https:// URL",
    );
  });
});

describe("URL helpers", () => {
  it("displayUrl drops user info and query", () => {
    expect(displayUrl(new URL("https://user:pw@proxy.example:8443/v1/search?token=t"))).toBe(
      "https://proxy.example:8443/v1/search",
    );
  });

  it("joinPath appends a segment with or without a trailing slash, keeping the query", () => {
    expect(joinPath(new URL("https://a.test/data/2.5"), "weather").href).toBe(
      "https://a.test/data/2.5/weather",
    );
    expect(joinPath(new URL("https://a.test/data/2.5/?x=1"), "forecast").href).toBe(
      "https://a.test/data/2.5/forecast?x=1",
    );
  });
});
