import { describe, expect, it } from "vitest";
import { localTime, parseOwmCurrent, parseOwmForecast } from "../src/providers/openweathermap/parse.js";
import { owmUrl } from "../src/providers/openweathermap/urls.js";
import {
  BERLIN,
  OWM_FORECAST_START,
  owmCurrent,
  owmForecast,
  PORTLAND,
} from "./fixtures/provider-responses.js";

describe("owmUrl", () => {
  it("appends the endpoint to the base path and sets q, units and appid", () => {
    const url = owmUrl(
      new URL("https://proxy.test/owm/data/2.5/"),
      "forecast",
      "Berlin, DE",
      "imperial",
      "k3y",
    );
    expect(url.pathname).toBe("/owm/data/2.5/forecast");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: "Berlin, DE",
      units: "imperial",
      appid: "k3y",
    });
  });
});

describe("parseOwmCurrent", () => {
  it("metric: m/s wind becomes km/h, rain of the last hour is the precipitation", () => {
    const { place, current } = parseOwmCurrent(owmCurrent(BERLIN, "metric"), "metric");
    expect(place).toEqual({
      name: "Berlin",
      country_code: "DE",
      latitude: 52.52437,
      longitude: 13.41053,
      utc_offset: "+02:00",
    });
    expect(current).toEqual({
      observed_at: "2025-06-01T14:15",
      condition: "Moderate rain",
      icon: "🌧️",
      temperature: 17.9,
      feels_like: 17.7,
      humidity_pct: 77,
      wind_speed: 14.8,
      wind_direction_deg: 250,
      precipitation: 1.5,
    });
  });

  it("imperial: mph stays mph, mm of rain become inches", () => {
    const { current } = parseOwmCurrent(owmCurrent(PORTLAND, "imperial"), "imperial");
    expect(current.wind_speed).toBe(9.2);
    expect(current.precipitation).toBe(0.06);
    expect(current.observed_at).toBe("2025-06-01T05:15");
  });

  it("no rain or snow block means no precipitation; rain and snow add up", () => {
    const dry = owmCurrent(BERLIN, "metric") as Record<string, unknown>;
    delete dry.rain;
    expect(parseOwmCurrent(dry, "metric").current.precipitation).toBe(0);
    const mixed = { ...owmCurrent(BERLIN, "metric"), snow: { "1h": 0.5 } };
    expect(parseOwmCurrent(mixed, "metric").current.precipitation).toBe(2);
  });

  it("a missing main block is an upstream failure naming it", () => {
    const body = owmCurrent(BERLIN, "metric") as Record<string, unknown>;
    delete body.main;
    expect(() => parseOwmCurrent(body, "metric")).toThrow(
      "OpenWeatherMap answered in an unexpected shape: main is missing",
    );
  });
});

describe("parseOwmForecast", () => {
  it("folds 3-hour slots into the city's local days", () => {
    // 40 slots from 00:00 UTC; Berlin is UTC+2, so local days start at 02:00 on 1 June.
    const { place, days } = parseOwmForecast(owmForecast(BERLIN, "metric"), 7, "metric");
    expect(place.name).toBe("Berlin");
    expect(days.map((day) => day.date)).toEqual([
      "2025-06-01",
      "2025-06-02",
      "2025-06-03",
      "2025-06-04",
      "2025-06-05",
    ]);
    const first = days[0]!;
    // Slot temperatures are 12 + 1.5 * (i % 8) ± 1.
    expect(first.temperature_max).toBe(23.5);
    expect(first.temperature_min).toBe(11);
    // One rainy slot per day: 1.2 mm, pop 0.64.
    expect(first.precipitation).toBe(1.2);
    expect(first.precipitation_probability_pct).toBe(64);
    // Max wind 3.1 + 3 = 6.1 m/s = 22 km/h.
    expect(first.wind_speed_max).toBe(22);
  });

  it("takes the condition of the slot nearest local noon", () => {
    const body = owmForecast(BERLIN, "metric");
    // 1 June 10:00 UTC = 12:00 in Berlin.
    const noon = body.list.find((slot) => slot.dt === OWM_FORECAST_START + 9 * 3600)!;
    noon.weather = [{ id: 800, main: "Clear", description: "clear sky", icon: "01d" }];
    expect(localTime(noon.dt, 7200)).toBe("2025-06-01T11:00");
    expect(parseOwmForecast(body, 1, "metric").days[0]).toMatchObject({ condition: "Clear sky", icon: "☀️" });
  });

  it("returns at most `days` days, and a west-of-UTC city starts the previous local day", () => {
    const { days } = parseOwmForecast(owmForecast(PORTLAND, "imperial"), 2, "imperial");
    expect(days.map((day) => day.date)).toEqual(["2025-05-31", "2025-06-01"]);
    expect(days[1]?.precipitation).toBe(0.05);
  });

  it("a slot without main is an upstream failure naming the index", () => {
    const body = owmForecast(BERLIN, "metric") as { list: Record<string, unknown>[] };
    delete body.list[3]!.main;
    expect(() => parseOwmForecast(body, 3, "metric")).toThrow("list[3].main is missing");
  });
});
