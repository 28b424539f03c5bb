import type { Codec } from "./codec.js";

/** ISO 8601: a date, optionally with a time and a zone (`2026-01-31`, `2026-01-31T09:00:00Z`). */
const ISO_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Whether the `YYYY-MM-DD` part names a real day (`Date` rolls 2026-02-31 over to March 3). */
function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split("-").map(Number) as [number, number, number];
  const probe = new Date(Date.UTC(year, month - 1, day));
  return probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

/** `date-time` ↔ `Date`: an ISO 8601 string. */
export const dateTimeCodec: Codec<Date> = {
  name: "date-time",
  typeName: "Date",
  reflectedAs: Date,
  jsonSchema: { type: "string", format: "date-time" },
  description: "ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z",
  expected: "string (ISO 8601 date-time)",
  noun: "an ISO 8601 date-time such as 2026-01-31T09:00:00Z",
  decode(text) {
    const trimmed = text.trim();
    const date = ISO_DATE_TIME.test(trimmed) ? new Date(trimmed) : undefined;
    if (date === undefined || Number.isNaN(date.getTime()) || !isCalendarDate(trimmed)) return undefined;
    return date;
  },
  encode: (date) => date.toISOString(),
  is: (value): value is Date => value instanceof Date,
};
