// Every type form the source reader turns into manifest facts, written without a single
// description or type option: the manifest must be the same however the plugin is run.
import { Args, Plugin, Tool } from "@executa/decorators";
import { IsInt, IsOptional, Max, Min } from "class-validator";

export enum Color {
  Red = "red",
  Green = "green",
}
export enum Level {
  Low,
  High = 5,
}
export type Units = "metric" | "imperial";

/** A place on earth. */
export interface Place {
  /** Latitude in degrees. */
  lat: number;
  lon: number;
  label?: string;
}

/** Options of a forecast. */
export class ForecastArgs {
  /** City name. */
  city!: string;
  /** Number of days. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(7)
  days: number = 3;
  /** Language of the answer. */
  lang = "en";
  /** When to start. */
  from?: Date;
}

/** Every type form the manifest reads from the source. */
@Plugin({ name: "every-form", version: "1.0.0" })
export class EveryForm {
  /** Paints a place. */
  @Tool()
  paint(
    /** Where to paint. */ place: Place,
    color: Color,
    level: Level,
    colors: Color[],
    mood: "happy" | "sad",
    units: Units = "metric",
    /** How many coats. */ coats?: number,
    at?: Date,
  ) {
    return { place, color, level, colors, mood, units, coats: coats ?? 1, at: at?.toISOString() ?? null };
  }

  /** Forecast for a city. */
  @Tool()
  forecast(@Args() args: ForecastArgs) {
    return { city: args.city, days: args.days, lang: args.lang, from: args.from?.toISOString() ?? null };
  }
}
