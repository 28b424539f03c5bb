import { CityNotFoundError } from "../../errors/city-not-found-error.js";
import { clipName, Shape } from "../../http/shape.js";
import { wmoCondition } from "../../model/conditions.js";
import {
  type CurrentConditions,
  type DailyForecast,
  formatUtcOffset,
  type Place,
} from "../../model/report.js";

const shape = new Shape("Open-Meteo");

/**
 * The first geocoding match. Open-Meteo answers an unknown name with no `results` key at
 * all (or, from some versions, an empty list); both are {@link CityNotFoundError}.
 */
export function parseGeocoding(body: unknown, city: string): Place {
  const root = shape.object(body, "the geocoding answer");
  if (root.results === undefined || root.results === null) throw new CityNotFoundError(city);
  const results = shape.array(root.results, "results");
  if (results.length === 0) throw new CityNotFoundError(city);
  const first = shape.object(results[0], "results[0]");
  const place: Place = {
    name: clipName(shape.string(first.name, "results[0].name")),
    latitude: shape.number(first.latitude, "results[0].latitude"),
    longitude: shape.number(first.longitude, "results[0].longitude"),
  };
  const region = shape.optionalString(first.admin1, "results[0].admin1");
  const country = shape.optionalString(first.country, "results[0].country");
  const countryCode = shape.optionalString(first.country_code, "results[0].country_code");
  const timezone = shape.optionalString(first.timezone, "results[0].timezone");
  if (region !== undefined && region !== place.name) place.region = clipName(region);
  if (country !== undefined) place.country = clipName(country);
  if (countryCode !== undefined) place.country_code = countryCode.toUpperCase();
  if (timezone !== undefined) place.timezone = timezone;
  return place;
}

/** The place with the forecast answer's resolved time zone and UTC offset (`timezone=auto`). */
export function withForecastTimezone(place: Place, body: unknown): Place {
  const root = shape.object(body, "the forecast answer");
  const timezone = shape.optionalString(root.timezone, "timezone");
  const offset = shape.nullableNumber(root.utc_offset_seconds, "utc_offset_seconds");
  const out: Place = { ...place };
  if (timezone !== undefined && timezone !== "GMT") out.timezone = timezone;
  if (offset !== null) out.utc_offset = formatUtcOffset(offset);
  return out;
}

/** `current` of a forecast answer requested with `CURRENT_VARIABLES`. */
export function parseCurrent(body: unknown): CurrentConditions {
  const root = shape.object(body, "the forecast answer");
  const current = shape.object(root.current, "current");
  const condition = wmoCondition(shape.number(current.weather_code, "current.weather_code"));
  return {
    observed_at: shape.string(current.time, "current.time"),
    condition: condition.text,
    icon: condition.icon,
    temperature: shape.number(current.temperature_2m, "current.temperature_2m"),
    feels_like: shape.nullableNumber(current.apparent_temperature, "current.apparent_temperature"),
    humidity_pct: shape.nullableNumber(current.relative_humidity_2m, "current.relative_humidity_2m"),
    wind_speed: shape.nullableNumber(current.wind_speed_10m, "current.wind_speed_10m"),
    wind_direction_deg: shape.nullableNumber(current.wind_direction_10m, "current.wind_direction_10m"),
    precipitation: shape.nullableNumber(current.precipitation, "current.precipitation"),
  };
}

/**
 * `daily` of a forecast answer requested with `DAILY_VARIABLES`: one entry per date, at
 * most `days`. The arrays run in parallel, indexed like `daily.time`.
 */
export function parseDaily(body: unknown, days: number): DailyForecast[] {
  const root = shape.object(body, "the forecast answer");
  const daily = shape.object(root.daily, "daily");
  const column = (name: string) => shape.array(daily[name], `daily.${name}`);
  const time = column("time");
  const codes = column("weather_code");
  const max = column("temperature_2m_max");
  const min = column("temperature_2m_min");
  const optional = (name: string) => (daily[name] === undefined ? [] : column(name));
  const precipitation = optional("precipitation_sum");
  const probability = optional("precipitation_probability_max");
  const wind = optional("wind_speed_10m_max");

  const count = Math.min(days, time.length);
  const out: DailyForecast[] = [];
  for (let i = 0; i < count; i++) {
    const condition = wmoCondition(shape.number(codes[i], `daily.weather_code[${i}]`));
    out.push({
      date: shape.string(time[i], `daily.time[${i}]`),
      condition: condition.text,
      icon: condition.icon,
      temperature_max: shape.number(max[i], `daily.temperature_2m_max[${i}]`),
      temperature_min: shape.number(min[i], `daily.temperature_2m_min[${i}]`),
      precipitation: shape.nullableNumber(precipitation[i], `daily.precipitation_sum[${i}]`),
      precipitation_probability_pct: shape.nullableNumber(
        probability[i],
        `daily.precipitation_probability_max[${i}]`,
      ),
      wind_speed_max: shape.nullableNumber(wind[i], `daily.wind_speed_10m_max[${i}]`),
    });
  }
  return out;
}
