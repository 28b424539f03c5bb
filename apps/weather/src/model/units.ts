/** The unit systems a caller may ask for. */
export const UNIT_SYSTEMS = ["metric", "imperial"] as const;

/** `metric`: °C, km/h, mm. `imperial`: °F, mph, inch. */
export type UnitSystem = (typeof UNIT_SYSTEMS)[number];

/** The unit of each measured value in a result, so the LLM never has to guess. */
export interface UnitLabels {
  system: UnitSystem;
  temperature: "°C" | "°F";
  wind_speed: "km/h" | "mph";
  precipitation: "mm" | "inch";
}

/** The labels of a unit system. Both providers' values are converted to exactly these units. */
export function unitLabels(system: UnitSystem): UnitLabels {
  return system === "imperial"
    ? { system, temperature: "°F", wind_speed: "mph", precipitation: "inch" }
    : { system, temperature: "°C", wind_speed: "km/h", precipitation: "mm" };
}

/** Rounds to one decimal, the precision every provider reports at most. */
export function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

const MM_PER_INCH = 25.4;
const KMH_PER_MS = 3.6;

/** OpenWeatherMap reports rain and snow in mm whatever the `units`. */
export function precipitationIn(system: UnitSystem, millimetres: number): number {
  return system === "imperial" ? Math.round((millimetres / MM_PER_INCH) * 100) / 100 : round1(millimetres);
}

/** OpenWeatherMap's metric wind is m/s; results use km/h like Open-Meteo. Imperial is mph on both. */
export function windSpeedFromOwm(system: UnitSystem, value: number): number {
  return system === "imperial" ? round1(value) : round1(value * KMH_PER_MS);
}
