import type { CurrentReport } from "../model/report.js";
import { unitLabels } from "../model/units.js";
import { placeLabel, windLabel, withUnit } from "./format.js";
import { escapeMarkdown } from "./markdown.js";

/**
 * A compact Markdown card of current conditions:
 *
 * ```md
 * ### ⛅ Berlin, Germany
 * **21.5 °C** · Partly cloudy · feels like 20.1 °C
 * 💧 54 % · 💨 12.3 km/h NW · ☔ 0 mm
 * <sub>Open-Meteo · 2024-06-01 14:15 local time</sub>
 * ```
 */
export function currentCard(report: CurrentReport): string {
  const units = unitLabels(report.units);
  const now = report.current;
  const feels = now.feels_like === null ? "" : ` · feels like ${now.feels_like} ${units.temperature}`;
  return [
    `### ${now.icon} ${placeLabel(report.place)}`,
    `**${now.temperature} ${units.temperature}** · ${escapeMarkdown(now.condition)}${feels}`,
    `💧 ${withUnit(now.humidity_pct, "%")} · 💨 ${windLabel(now.wind_speed, units.wind_speed, now.wind_direction_deg)} · ☔ ${withUnit(now.precipitation, units.precipitation)}`,
    `<sub>${report.provider} · ${escapeMarkdown(now.observed_at.replace("T", " "))} local time</sub>`,
  ].join("\n");
}
