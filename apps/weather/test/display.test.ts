import { DISPLAY_LIMITS } from "@executa/core";
import { describe, expect, it } from "vitest";
import { currentCard } from "../src/display/current-card.js";
import { forecastTable } from "../src/display/forecast-table.js";
import { placeLabel, shortDate } from "../src/display/format.js";
import { escapeMarkdown } from "../src/display/markdown.js";
import { compassPoint, owmCondition, wmoCondition } from "../src/model/conditions.js";
import type { CurrentReport, ForecastReport } from "../src/model/report.js";
import { currentWeatherResult, forecastResult } from "../src/results.js";

const place = { name: "Berlin", region: "Land Berlin", country: "Germany", latitude: 52.5, longitude: 13.4 };

const current: CurrentReport = {
  provider: "Open-Meteo",
  units: "metric",
  place,
  current: {
    observed_at: "2025-06-01T14:15",
    condition: "Partly cloudy",
    icon: "⛅",
    temperature: 21.5,
    feels_like: 20.1,
    humidity_pct: 54,
    wind_speed: 12.3,
    wind_direction_deg: 310,
    precipitation: 0,
  },
};

const forecast = (days: number, note?: string): ForecastReport => ({
  provider: "OpenWeatherMap",
  units: "imperial",
  place: { ...place, name: "Berlin | *bold*" },
  days: Array.from({ length: days }, (_, i) => ({
    date: `2025-06-0${i + 1}`,
    condition: "Slight rain",
    icon: "🌦️",
    temperature_max: 70 + i,
    temperature_min: 55,
    precipitation: 0.1,
    precipitation_probability_pct: i === 0 ? null : 40,
    wind_speed_max: null,
  })),
  ...(note ? { note } : {}),
});

describe("current card", () => {
  it("is a compact Markdown card with units", () => {
    expect(currentCard(current)).toBe(
      [
        "### ⛅ Berlin, Land Berlin, Germany",
        "**21.5 °C** · Partly cloudy · feels like 20.1 °C",
        "💧 54 % · 💨 12.3 km/h NW · ☔ 0 mm",
        "<sub>Open-Meteo · 2025-06-01 14:15 local time</sub>",
      ].join("\n"),
    );
  });

  it("missing values show as a dash", () => {
    const card = currentCard({
      ...current,
      current: { ...current.current, feels_like: null, humidity_pct: null, wind_speed: null },
    });
    expect(card).toContain("**21.5 °C** · Partly cloudy\n");
    expect(card).toContain("💧 – · 💨 –");
  });
});

describe("forecast table", () => {
  it("one row per day, names escaped, a blank line before the footer", () => {
    const table = forecastTable(forecast(2, "OpenWeatherMap's forecast covers 5 days"));
    const lines = table.split("\n");
    expect(lines[0]).toBe("### 2-day forecast · Berlin \\| \\*bold\\*, Land Berlin, Germany");
    expect(lines[1]).toBe("| Day | | Conditions | High | Low | Precipitation | Wind |");
    expect(lines[3]).toBe("| Sun 1 Jun | 🌦️ | Slight rain | 70 °F | 55 °F | 0.1 inch | – |");
    expect(lines[4]).toBe("| Mon 2 Jun | 🌦️ | Slight rain | 71 °F | 55 °F | 0.1 inch (40 %) | – |");
    expect(lines[5]).toBe("");
    expect(lines[6]).toBe("<sub>OpenWeatherMap's forecast covers 5 days</sub>");
  });

  it("seven days fit the host's display limits", () => {
    const text = forecastTable(forecast(7));
    expect([...text].length).toBeLessThan(DISPLAY_LIMITS.maxBlockChars);
  });
});

describe("results", () => {
  it("get_weather: plain fields, units and one display block", () => {
    const data = currentWeatherResult(current);
    expect(data).toMatchObject({ temperature: 21.5, wind_direction: "NW", source: "Open-Meteo" });
    expect(data.units).toEqual({
      system: "metric",
      temperature: "°C",
      wind_speed: "km/h",
      precipitation: "mm",
    });
    expect(data._display).toEqual({ blocks: [{ type: "markdown", text: currentCard(current) }] });
  });

  it("get_forecast: days without icons, the note kept for the LLM", () => {
    const data = forecastResult(forecast(3, "fewer days"));
    expect(data.days).toHaveLength(3);
    expect(data.days[0]).not.toHaveProperty("icon");
    expect(data.note).toBe("fewer days");
    expect(forecastResult(forecast(1))).not.toHaveProperty("note");
  });
});

describe("formatting helpers", () => {
  it("shortDate is computed from the date alone", () => {
    expect(shortDate("2025-06-01")).toBe("Sun 1 Jun");
    expect(shortDate("2024-02-29")).toBe("Thu 29 Feb");
    expect(shortDate("soon")).toBe("soon");
  });

  it("escapeMarkdown neutralises table and emphasis characters and newlines", () => {
    expect(escapeMarkdown("a|b *c* [d](e)\nf")).toBe("a\\|b \\*c\\* \\[d\\]\\(e\\) f");
  });

  it("placeLabel falls back to the country code", () => {
    expect(placeLabel({ name: "London", country_code: "GB", latitude: 0, longitude: 0 })).toBe("London, GB");
  });

  it("compass points, WMO and OpenWeatherMap conditions", () => {
    expect([0, 22, 23, 68, 180, 337, 338, 360, -90].map(compassPoint)).toEqual([
      "N",
      "N",
      "NE",
      "E",
      "S",
      "NW",
      "N",
      "N",
      "W",
    ]);
    expect(wmoCondition(95)).toEqual({ text: "Thunderstorm", icon: "⛈️" });
    expect(owmCondition(804, "overcast clouds")).toEqual({ text: "Overcast clouds", icon: "☁️" });
    expect(owmCondition(211, undefined).text).toBe("Condition 211");
  });
});
