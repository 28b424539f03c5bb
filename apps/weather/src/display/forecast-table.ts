import type { ForecastReport } from "../model/report.js";
import { unitLabels } from "../model/units.js";
import { placeLabel, shortDate, withUnit } from "./format.js";
import { escapeMarkdown } from "./markdown.js";

/**
 * A Markdown table of the forecast, one row per day:
 *
 * ```md
 * ### 3-day forecast · Berlin, Germany
 * | Day | | Conditions | High | Low | Precipitation | Wind |
 * |---|---|---|---|---|---|---|
 * | Sat 1 Jun | ⛅ | Partly cloudy | 23 °C | 14 °C | 0.4 mm (35 %) | 18 km/h |
 *
 * <sub>Open-Meteo</sub>
 * ```
 */
export function forecastTable(report: ForecastReport): string {
  const units = unitLabels(report.units);
  const rows = report.days.map((day) => {
    const chance =
      day.precipitation_probability_pct === null ? "" : ` (${day.precipitation_probability_pct} %)`;
    return [
      shortDate(day.date),
      day.icon,
      escapeMarkdown(day.condition),
      `${day.temperature_max} ${units.temperature}`,
      `${day.temperature_min} ${units.temperature}`,
      `${withUnit(day.precipitation, units.precipitation)}${chance}`,
      withUnit(day.wind_speed_max, units.wind_speed),
    ];
  });
  const lines = [
    `### ${report.days.length}-day forecast · ${placeLabel(report.place)}`,
    "| Day | | Conditions | High | Low | Precipitation | Wind |",
    "|---|---|---|---|---|---|---|",
    ...rows.map((cells) => `| ${cells.join(" | ")} |`),
  ];
  // A note names the provider itself ("OpenWeatherMap's forecast covers 5 days …").
  const footer = report.note ? escapeMarkdown(report.note) : report.provider;
  // A blank line ends the table; otherwise GFM would read the footer as one more row.
  lines.push("", `<sub>${footer}</sub>`);
  return lines.join("\n");
}
