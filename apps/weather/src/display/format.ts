import { compassPoint } from "../model/conditions.js";
import type { Place } from "../model/report.js";
import { escapeMarkdown } from "./markdown.js";

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** `2024-06-01` → `Sat 1 Jun`. Computed, not locale-dependent (a single executable may lack ICU data). */
export function shortDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) return escapeMarkdown(isoDate);
  const [, year, month, day] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return `${WEEKDAYS[date.getUTCDay()]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
}

/** `Berlin, Germany` / `Portland, Oregon, United States` / `London, GB`, escaped for Markdown. */
export function placeLabel(place: Place): string {
  const parts = [place.name, place.region, place.country ?? place.country_code].filter(
    (part): part is string => typeof part === "string" && part !== "",
  );
  return escapeMarkdown(parts.join(", "));
}

/** A value with its unit, or an en dash when the provider had none. */
export function withUnit(value: number | null, unit: string): string {
  return value === null ? "–" : `${value} ${unit}`;
}

/** `12.3 km/h NW`. */
export function windLabel(speed: number | null, unit: string, degrees: number | null): string {
  if (speed === null) return "–";
  return degrees === null ? `${speed} ${unit}` : `${speed} ${unit} ${compassPoint(degrees)}`;
}
