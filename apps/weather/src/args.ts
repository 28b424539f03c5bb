// @executa/decorators first: it installs the Reflect metadata API that records the
// design:type metadata of these DTO properties.
import { Field } from "@executa/decorators";
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from "class-validator";
import { UNIT_SYSTEMS, type UnitSystem } from "./model/units.js";

const CITY = {
  description:
    'City name, in any language; add a region or country after a comma to pick among places with the same name ("Paris, Texas").',
};
const UNITS = { description: "metric (°C, km/h, mm) or imperial (°F, mph, inch)." };
const NOT_BLANK = /\S/;

/** Arguments of `get_weather`. */
export class WeatherArgs {
  @Field(CITY)
  @IsString()
  @Matches(NOT_BLANK, { message: "city must not be blank" })
  @MaxLength(100)
  city!: string;

  @Field(UNITS)
  @IsOptional()
  @IsString()
  @IsIn(UNIT_SYSTEMS)
  units: UnitSystem = "metric";
}

/** Arguments of `get_forecast`. */
export class ForecastArgs {
  @Field(CITY)
  @IsString()
  @Matches(NOT_BLANK, { message: "city must not be blank" })
  @MaxLength(100)
  city!: string;

  /** How many days, 1-7, today first. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(7)
  days: number = 3;

  @Field(UNITS)
  @IsOptional()
  @IsString()
  @IsIn(UNIT_SYSTEMS)
  units: UnitSystem = "metric";
}
