import { type Display, withDisplay } from "@executa/core";
import { currentCard } from "./display/current-card.js";
import { forecastTable } from "./display/forecast-table.js";
import { compassPoint } from "./model/conditions.js";
import type { CurrentReport, ForecastReport, Place } from "./model/report.js";
import { type UnitLabels, unitLabels } from "./model/units.js";

/** `get_weather`'s data: plain fields for the LLM, and the card under `_display`. */
export interface CurrentWeatherResult {
  location: Place;
  observed_at: string;
  condition: string;
  temperature: number;
  feels_like: number | null;
  humidity_pct: number | null;
  wind_speed: number | null;
  wind_direction_deg: number | null;
  wind_direction: string | null;
  precipitation: number | null;
  units: UnitLabels;
  source: string;
  _display: Display;
}

/** `get_forecast`'s data: one entry per day, and the table under `_display`. */
export interface ForecastResult {
  location: Place;
  days: {
    date: string;
    condition: string;
    temperature_max: number;
    temperature_min: number;
    precipitation: number | null;
    precipitation_probability_pct: number | null;
    wind_speed_max: number | null;
  }[];
  units: UnitLabels;
  source: string;
  note?: string;
  _display: Display;
}

/** The result of `get_weather`. */
export function currentWeatherResult(report: CurrentReport): CurrentWeatherResult {
  const now = report.current;
  return withDisplay(
    {
      location: report.place,
      observed_at: now.observed_at,
      condition: now.condition,
      temperature: now.temperature,
      feels_like: now.feels_like,
      humidity_pct: now.humidity_pct,
      wind_speed: now.wind_speed,
      wind_direction_deg: now.wind_direction_deg,
      wind_direction: now.wind_direction_deg === null ? null : compassPoint(now.wind_direction_deg),
      precipitation: now.precipitation,
      units: unitLabels(report.units),
      source: report.provider,
    },
    currentCard(report),
  );
}

/** The result of `get_forecast`. */
export function forecastResult(report: ForecastReport): ForecastResult {
  const data: Omit<ForecastResult, "_display"> = {
    location: report.place,
    days: report.days.map(({ icon: _icon, ...day }) => day),
    units: unitLabels(report.units),
    source: report.provider,
  };
  if (report.note) data.note = report.note;
  return withDisplay(data, forecastTable(report));
}
