import { clipName, Shape } from "../../http/shape.js";
import { owmCondition } from "../../model/conditions.js";
import {
  type CurrentConditions,
  type DailyForecast,
  formatUtcOffset,
  type Place,
} from "../../model/report.js";
import { precipitationIn, round1, type UnitSystem, windSpeedFromOwm } from "../../model/units.js";

const shape = new Shape("OpenWeatherMap");

/** `YYYY-MM-DDTHH:MM` local time of a Unix time at a UTC offset in seconds. */
export function localTime(unixSeconds: number, offsetSeconds: number): string {
  return new Date((unixSeconds + offsetSeconds) * 1000).toISOString().slice(0, 16);
}

function condition(entry: Record<string, unknown>, path: string) {
  const weather = shape.array(entry.weather, `${path}.weather`);
  const first = shape.object(weather[0], `${path}.weather[0]`);
  return owmCondition(
    shape.number(first.id, `${path}.weather[0].id`),
    shape.optionalString(first.description, `${path}.weather[0].description`),
  );
}

/** Rain plus snow in mm over `window` ("1h" or "3h"); OpenWeatherMap leaves both out when there was none. */
function precipitationMm(entry: Record<string, unknown>, path: string, window: "1h" | "3h"): number {
  let total = 0;
  for (const kind of ["rain", "snow"] as const) {
    if (entry[kind] === undefined || entry[kind] === null) continue;
    const volumes = shape.object(entry[kind], `${path}.${kind}`);
    total += shape.nullableNumber(volumes[window], `${path}.${kind}.${window}`) ?? 0;
  }
  return total;
}

function placeOf(name: unknown, coord: unknown, country: unknown, offset: number, path: string): Place {
  const position = shape.object(coord, `${path}coord`);
  const place: Place = {
    name: clipName(shape.string(name, `${path}name`)),
    latitude: shape.number(position.lat, `${path}coord.lat`),
    longitude: shape.number(position.lon, `${path}coord.lon`),
    utc_offset: formatUtcOffset(offset),
  };
  const code = shape.optionalString(country, `${path}country`);
  if (code !== undefined) place.country_code = code.toUpperCase();
  return place;
}

/** A current weather answer (`/weather`, requested with `units`). */
export function parseOwmCurrent(
  body: unknown,
  units: UnitSystem,
): { place: Place; current: CurrentConditions } {
  const root = shape.object(body, "the weather answer");
  const offset = shape.number(root.timezone, "timezone");
  const sys = root.sys === undefined ? {} : shape.object(root.sys, "sys");
  const place = placeOf(root.name, root.coord, sys.country, offset, "");
  const main = shape.object(root.main, "main");
  const wind = root.wind === undefined ? {} : shape.object(root.wind, "wind");
  const speed = shape.nullableNumber(wind.speed, "wind.speed");
  const now = condition(root, "");
  return {
    place,
    current: {
      observed_at: localTime(shape.number(root.dt, "dt"), offset),
      condition: now.text,
      icon: now.icon,
      temperature: shape.number(main.temp, "main.temp"),
      feels_like: shape.nullableNumber(main.feels_like, "main.feels_like"),
      humidity_pct: shape.nullableNumber(main.humidity, "main.humidity"),
      wind_speed: speed === null ? null : windSpeedFromOwm(units, speed),
      wind_direction_deg: shape.nullableNumber(wind.deg, "wind.deg"),
      precipitation: precipitationIn(units, precipitationMm(root, "", "1h")),
    },
  };
}

interface Slot {
  date: string;
  hour: number;
  max: number;
  min: number;
  pop: number | null;
  precipitationMm: number;
  wind: number | null;
  entry: Record<string, unknown>;
  path: string;
}

/**
 * A 5 day / 3 hour forecast answer (`/forecast`) folded into local days, at most `days`:
 * the highest `temp_max` and lowest `temp_min` of the day's slots, rain + snow summed,
 * the highest `pop` as a percentage, the highest wind speed, and the condition of the
 * slot nearest local noon. Days run in the city's local time (`city.timezone`).
 */
export function parseOwmForecast(
  body: unknown,
  days: number,
  units: UnitSystem,
): { place: Place; days: DailyForecast[] } {
  const root = shape.object(body, "the forecast answer");
  const city = shape.object(root.city, "city");
  const offset = shape.number(city.timezone, "city.timezone");
  const place = placeOf(city.name, city.coord, city.country, offset, "city.");
  const list = shape.array(root.list, "list");

  const byDate = new Map<string, Slot[]>();
  list.forEach((item, index) => {
    const path = `list[${index}]`;
    const entry = shape.object(item, path);
    const main = shape.object(entry.main, `${path}.main`);
    const local = localTime(shape.number(entry.dt, `${path}.dt`), offset);
    const wind = entry.wind === undefined ? {} : shape.object(entry.wind, `${path}.wind`);
    const slot: Slot = {
      date: local.slice(0, 10),
      hour: Number(local.slice(11, 13)),
      max: shape.number(main.temp_max ?? main.temp, `${path}.main.temp_max`),
      min: shape.number(main.temp_min ?? main.temp, `${path}.main.temp_min`),
      pop: shape.nullableNumber(entry.pop, `${path}.pop`),
      precipitationMm: precipitationMm(entry, path, "3h"),
      wind: shape.nullableNumber(wind.speed, `${path}.wind.speed`),
      entry,
      path,
    };
    const slots = byDate.get(slot.date) ?? [];
    slots.push(slot);
    byDate.set(slot.date, slots);
  });

  const out: DailyForecast[] = [];
  for (const [date, slots] of [...byDate.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (out.length >= days) break;
    const noon = slots.reduce((best, slot) =>
      Math.abs(slot.hour - 12) < Math.abs(best.hour - 12) ? slot : best,
    );
    const pops = slots.map((slot) => slot.pop).filter((pop): pop is number => pop !== null);
    const winds = slots.map((slot) => slot.wind).filter((wind): wind is number => wind !== null);
    const shown = condition(noon.entry, noon.path);
    out.push({
      date,
      condition: shown.text,
      icon: shown.icon,
      temperature_max: round1(Math.max(...slots.map((slot) => slot.max))),
      temperature_min: round1(Math.min(...slots.map((slot) => slot.min))),
      precipitation: precipitationIn(
        units,
        slots.reduce((sum, slot) => sum + slot.precipitationMm, 0),
      ),
      precipitation_probability_pct: pops.length ? Math.round(Math.max(...pops) * 100) : null,
      wind_speed_max: winds.length ? windSpeedFromOwm(units, Math.max(...winds)) : null,
    });
  }
  return { place, days: out };
}
