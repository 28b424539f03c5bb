import { describe, expect, it } from "vitest";
import { CityNotFoundError } from "../src/errors/city-not-found-error.js";
import { UpstreamError } from "../src/errors/upstream-error.js";
import {
  parseCurrent,
  parseDaily,
  parseGeocoding,
  withForecastTimezone,
} from "../src/providers/open-meteo/parse.js";
import { currentUrl, dailyUrl, geocodingUrl } from "../src/providers/open-meteo/urls.js";
import {
  BERLIN,
  openMeteoCurrent,
  openMeteoDaily,
  openMeteoGeocoding,
  openMeteoNoMatch,
  PORTLAND,
} from "./fixtures/provider-responses.js";

const base = (path: string) => new URL(`https://example.test${path}`);

describe("Open-Meteo URLs", () => {
  it("geocoding asks for the one best match of the name", () => {
    const url = geocodingUrl(base("/v1/search"), "São Paulo, Brazil");
    expect(url.pathname).toBe("/v1/search");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      name: "São Paulo, Brazil",
      count: "1",
      language: "en",
      format: "json",
    });
  });

  it("keeps a query the base URL already has (e.g. a proxy token)", () => {
    const url = geocodingUrl(base("/v1/search?apikey=abc"), "Berlin");
    expect(url.searchParams.get("apikey")).toBe("abc");
  });

  it("current: coordinates, the variables, local time zone, metric wind in km/h", () => {
    const url = currentUrl(
      base("/v1/forecast"),
      { name: "Berlin", latitude: 52.52, longitude: 13.41 },
      "metric",
    );
    expect(url.searchParams.get("latitude")).toBe("52.52");
    expect(url.searchParams.get("longitude")).toBe("13.41");
    expect(url.searchParams.get("timezone")).toBe("auto");
    expect(url.searchParams.get("current")?.split(",")).toContain("weather_code");
    expect(url.searchParams.get("wind_speed_unit")).toBe("kmh");
    expect(url.searchParams.has("temperature_unit")).toBe(false);
    expect(url.searchParams.has("daily")).toBe(false);
  });

  it("daily: forecast_days and imperial units", () => {
    const url = dailyUrl(base("/v1/forecast"), { name: "X", latitude: 1, longitude: 2 }, 5, "imperial");
    expect(url.searchParams.get("forecast_days")).toBe("5");
    expect(url.searchParams.get("daily")?.split(",")).toEqual([
      "weather_code",
      "temperature_2m_max",
      "temperature_2m_min",
      "precipitation_sum",
      "precipitation_probability_max",
      "wind_speed_10m_max",
    ]);
    expect(url.searchParams.get("temperature_unit")).toBe("fahrenheit");
    expect(url.searchParams.get("wind_speed_unit")).toBe("mph");
    expect(url.searchParams.get("precipitation_unit")).toBe("inch");
  });
});

describe("parseGeocoding", () => {
  it("takes the first result's name, region, country and coordinates", () => {
    expect(parseGeocoding(openMeteoGeocoding(PORTLAND), "portland")).toEqual({
      name: "Portland",
      region: "Oregon",
      country: "United States",
      country_code: "US",
      latitude: 45.52345,
      longitude: -122.67621,
      timezone: "America/Los_Angeles",
    });
  });

  it("no `results` key, or an empty list, is city not found", () => {
    expect(() => parseGeocoding(openMeteoNoMatch(), "Atlantis")).toThrow(CityNotFoundError);
    expect(() => parseGeocoding(openMeteoNoMatch(), "Atlantis")).toThrow("city not found: Atlantis");
    expect(() => parseGeocoding({ results: [], generationtime_ms: 1 }, "Atlantis")).toThrow(
      CityNotFoundError,
    );
  });

  it("a region equal to the name is left out (Berlin, Berlin)", () => {
    const body = openMeteoGeocoding(BERLIN);
    body.results[0]!.admin1 = "Berlin";
    expect(parseGeocoding(body, "Berlin").region).toBeUndefined();
  });

  it("a result without coordinates is an upstream failure naming the field", () => {
    const body = { results: [{ name: "Nowhere", latitude: "52" }] };
    expect(() => parseGeocoding(body, "Nowhere")).toThrow(UpstreamError);
    expect(() => parseGeocoding(body, "Nowhere")).toThrow(
      "Open-Meteo answered in an unexpected shape: results[0].latitude is not a number",
    );
    expect(() => parseGeocoding([], "x")).toThrow("the geocoding answer is not an object");
  });

  it("clips absurdly long names", () => {
    const body = openMeteoGeocoding(BERLIN);
    body.results[0]!.name = "x".repeat(500);
    expect(parseGeocoding(body, "x").name).toHaveLength(100);
  });
});

describe("parseCurrent", () => {
  it("maps the current block and the WMO code", () => {
    expect(parseCurrent(openMeteoCurrent(BERLIN, "metric"))).toEqual({
      observed_at: "2025-06-01T14:15",
      condition: "Partly cloudy",
      icon: "⛅",
      temperature: 21.5,
      feels_like: 20.1,
      humidity_pct: 54,
      wind_speed: 12.3,
      wind_direction_deg: 310,
      precipitation: 0,
    });
  });

  it("null values stay null; a missing temperature is an upstream failure", () => {
    const body = openMeteoCurrent(BERLIN, "metric");
    (body.current as Record<string, unknown>).apparent_temperature = null;
    expect(parseCurrent(body).feels_like).toBeNull();
    delete (body.current as Record<string, unknown>).temperature_2m;
    expect(() => parseCurrent(body)).toThrow("current.temperature_2m is missing");
  });

  it("the forecast answer's time zone and offset are added to the place", () => {
    const place = withForecastTimezone(
      { name: "Portland", latitude: 1, longitude: 2 },
      openMeteoCurrent(PORTLAND, "metric"),
    );
    expect(place).toMatchObject({ timezone: "America/Los_Angeles", utc_offset: "-07:00" });
  });
});

describe("parseDaily", () => {
  it("one entry per date, columns read in parallel", () => {
    const days = parseDaily(openMeteoDaily(BERLIN, 3, "metric"), 3);
    expect(days.map((day) => [day.date, day.condition, day.temperature_max, day.temperature_min])).toEqual([
      ["2025-06-01", "Partly cloudy", 23, 14],
      ["2025-06-02", "Slight rain", 24, 15],
      ["2025-06-03", "Clear sky", 25, 16],
    ]);
    expect(days[1]).toMatchObject({
      precipitation: 4.1,
      precipitation_probability_pct: 80,
      wind_speed_max: 19,
    });
  });

  it("never more than asked for, and fewer when fewer came back", () => {
    expect(parseDaily(openMeteoDaily(BERLIN, 7, "metric"), 2)).toHaveLength(2);
    expect(parseDaily(openMeteoDaily(BERLIN, 2, "metric"), 7)).toHaveLength(2);
  });

  it("null probability (some models have none) stays null; a non-array column fails", () => {
    const body = openMeteoDaily(BERLIN, 2, "metric");
    (body.daily as Record<string, unknown>).precipitation_probability_max = [null, null];
    expect(parseDaily(body, 2)[0]?.precipitation_probability_pct).toBeNull();
    (body.daily as Record<string, unknown>).temperature_2m_max = "23";
    expect(() => parseDaily(body, 2)).toThrow("daily.temperature_2m_max is not an array");
  });

  it("unknown WMO codes are named, not guessed", () => {
    const body = openMeteoDaily(BERLIN, 1, "metric");
    body.daily.weather_code = [42];
    expect(parseDaily(body, 1)[0]?.condition).toBe("Weather code 42");
  });
});
