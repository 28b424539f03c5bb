import {
  Args,
  Credential,
  Ctx,
  Health,
  type HealthResult,
  type InvokeContext,
  Plugin,
  Tool,
} from "@executa/decorators";
import { ForecastArgs, WeatherArgs } from "./args.js";
import { displayUrl, readEndpoints } from "./config/endpoints.js";
import { WEATHER_API_KEY } from "./providers/openweathermap/openweathermap-provider.js";
import { selectProvider } from "./providers/select-provider.js";
import {
  type CurrentWeatherResult,
  currentWeatherResult,
  type ForecastResult,
  forecastResult,
} from "./results.js";

/** Seconds each tool may run; two small HTTP requests at most. */
const TOOL_TIMEOUT_S = 20;

/**
 * Current weather and forecasts for a city. Open-Meteo by default (no key); OpenWeatherMap
 * when the `WEATHER_API_KEY` credential is configured. Endpoints come from
 * `WEATHER_GEOCODING_URL`, `WEATHER_FORECAST_URL` and `WEATHER_OWM_URL`.
 */
@Plugin({
  name: "weather",
  display_name: "Weather",
  version: "1.0.0",
  description:
    "Current weather and a 1-7 day forecast for any city, from Open-Meteo (no key needed) or, with an API key, OpenWeatherMap.",
  icon: "🌤️",
  category: "utilities",
  license: "MIT",
  credentials: [
    {
      name: WEATHER_API_KEY,
      display_name: "OpenWeatherMap API key",
      description:
        "Optional. With a key (https://home.openweathermap.org/api_keys) the weather comes from OpenWeatherMap; without one from Open-Meteo, which needs none.",
      required: false,
      sensitive: true,
    },
  ],
})
export class Weather {
  /** Current weather for a city: condition, temperature, feels-like, humidity, wind and precipitation. */
  @Tool({ timeout: TOOL_TIMEOUT_S })
  async getWeather(
    @Args() args: WeatherArgs,
    @Credential(WEATHER_API_KEY) apiKey: string | undefined,
    @Ctx() ctx: InvokeContext,
  ): Promise<CurrentWeatherResult> {
    const provider = selectProvider(apiKey, readEndpoints());
    ctx.log.info(`current weather via ${provider.name}`);
    const city = args.city.trim();
    return currentWeatherResult(
      await provider.current(city, args.units, { signal: ctx.signal, log: ctx.log }),
    );
  }

  /**
   * Daily forecast for a city for 1-7 days starting today: condition, high and low,
   * precipitation and its chance, wind.
   */
  @Tool({ timeout: TOOL_TIMEOUT_S })
  async getForecast(
    @Args() args: ForecastArgs,
    @Credential(WEATHER_API_KEY) apiKey: string | undefined,
    @Ctx() ctx: InvokeContext,
  ): Promise<ForecastResult> {
    const provider = selectProvider(apiKey, readEndpoints());
    ctx.log.info(`${args.days}-day forecast via ${provider.name}`);
    const city = args.city.trim();
    const report = await provider.forecast(city, args.days, args.units, { signal: ctx.signal, log: ctx.log });
    return forecastResult(report);
  }

  /** Ready when the endpoint variables are usable; says which endpoints are in use. */
  @Health()
  health(): HealthResult {
    try {
      const endpoints = readEndpoints();
      return {
        status: "ready",
        message: "",
        details: {
          geocoding: displayUrl(endpoints.geocoding),
          forecast: displayUrl(endpoints.forecast),
          openweathermap: displayUrl(endpoints.openWeatherMap),
        },
      };
    } catch (error) {
      return { status: "error", message: (error as Error).message, details: {} };
    }
  }
}
