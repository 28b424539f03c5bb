import type { UnitSystem } from "./units.js";

/** Which upstream service answered. */
export type ProviderName = "Open-Meteo" | "OpenWeatherMap";

/** Where the weather is for, as the provider resolved the city. */
export interface Place {
  name: string;
  /** State, province or region, when the provider knows it. */
  region?: string;
  /** Country name (Open-Meteo) — OpenWeatherMap only gives the code. */
  country?: string;
  /** ISO 3166-1 alpha-2 country code. */
  country_code?: string;
  latitude: number;
  longitude: number;
  /** IANA time zone, e.g. `Europe/Berlin` (Open-Meteo only). */
  timezone?: string;
  /** Offset from UTC of the place's local time, e.g. `+02:00`. */
  utc_offset?: string;
}

/** Conditions now. Values are in the units of the requested system. */
export interface CurrentConditions {
  /** Local time of the observation, `YYYY-MM-DDTHH:MM`. */
  observed_at: string;
  condition: string;
  /** Icon for the display card. */
  icon: string;
  temperature: number;
  feels_like: number | null;
  humidity_pct: number | null;
  wind_speed: number | null;
  wind_direction_deg: number | null;
  /** Precipitation of the last hour (OpenWeatherMap: rain + snow of the last hour). */
  precipitation: number | null;
}

/** One day of a forecast. */
export interface DailyForecast {
  /** Local date, `YYYY-MM-DD`. */
  date: string;
  condition: string;
  icon: string;
  temperature_max: number;
  temperature_min: number;
  precipitation: number | null;
  precipitation_probability_pct: number | null;
  wind_speed_max: number | null;
}

/** What a provider answers for `get_weather`. */
export interface CurrentReport {
  provider: ProviderName;
  units: UnitSystem;
  place: Place;
  current: CurrentConditions;
}

/** What a provider answers for `get_forecast`. */
export interface ForecastReport {
  provider: ProviderName;
  units: UnitSystem;
  place: Place;
  days: DailyForecast[];
  /** Set when fewer days came back than were asked for, saying why. */
  note?: string;
}

/** Formats a UTC offset in seconds as `+HH:MM`. */
export function formatUtcOffset(seconds: number): string {
  const sign = seconds < 0 ? "-" : "+";
  const minutes = Math.round(Math.abs(seconds) / 60);
  const hh = String(Math.floor(minutes / 60)).padStart(2, "0");
  const mm = String(minutes % 60).padStart(2, "0");
  return `${sign}${hh}:${mm}`;
}
