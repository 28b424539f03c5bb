// The built single executable, driven over real pipes by @executa/testing, against a fake
// Open-Meteo / OpenWeatherMap on 127.0.0.1 that answers in the documented shapes.
import { type RpcError, ServerErrorCode } from "@executa/core";
import { expectInvalidParams, expectRpcError, expectSuccess, expectToolError } from "@executa/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CurrentWeatherResult, ForecastResult } from "../src/results.js";
import {
  type FakeWeatherServer,
  PATHS,
  sendJson,
  startFakeWeatherServer,
  VALID_OWM_KEY,
} from "./fixtures/fake-weather-server.js";
import { OWM_RATE_LIMITED, openMeteoError } from "./fixtures/provider-responses.js";
import { startWeatherBinary, type WeatherUnderTest } from "./helpers/weather-binary.js";

const BAD_KEY = "owm-wrong-key-d41d8cd98f00b204";

let server: FakeWeatherServer;
let plugin: WeatherUnderTest;
/** Every result and error message, to check no key leaked into any of them. */
const seen: string[] = [];

const invoke = async <D>(
  tool: string,
  args: Record<string, unknown>,
  credentials?: Record<string, string>,
) => {
  try {
    const result = await plugin.client.invoke<D>(tool, args, credentials ? { credentials } : {});
    seen.push(JSON.stringify(result));
    return result;
  } catch (error) {
    seen.push(JSON.stringify({ message: (error as Error).message, data: (error as RpcError).data }));
    throw error;
  }
};

beforeAll(async () => {
  server = await startFakeWeatherServer();
  plugin = await startWeatherBinary(server.env);
});

afterEach(() => server.reset());

afterAll(async () => {
  await plugin?.client.close();
  await server?.close();
});

describe("describe", () => {
  it("declares both tools and the optional, sensitive credential", async () => {
    const manifest = await plugin.client.describe();
    expect(manifest.name).toBe("weather");
    expect(manifest.tools.map((tool) => tool.name)).toEqual(["get_weather", "get_forecast"]);
    const forecast = manifest.tools[1]!;
    expect(forecast.parameters?.map((p) => [p.name, p.type, p.required, p.default])).toEqual([
      ["city", "string", true, undefined],
      ["days", "integer", false, 3],
      ["units", "string", false, "metric"],
    ]);
    expect(forecast.parameters?.[2]?.enum).toEqual(["metric", "imperial"]);
    expect(manifest.credentials).toEqual([
      expect.objectContaining({ name: "WEATHER_API_KEY", required: false, sensitive: true }),
    ]);
  });
});

describe("Open-Meteo (no key)", () => {
  it("get_weather geocodes the city, then asks the forecast API for current conditions", async () => {
    const data = expectSuccess(await invoke<CurrentWeatherResult>("get_weather", { city: "Berlin" }));
    expect(data).toMatchObject({
      location: { name: "Berlin", region: "Land Berlin", country: "Germany", country_code: "DE" },
      observed_at: "2025-06-01T14:15",
      condition: "Partly cloudy",
      temperature: 21.5,
      feels_like: 20.1,
      humidity_pct: 54,
      wind_speed: 12.3,
      wind_direction: "NW",
      units: { system: "metric", temperature: "°C", wind_speed: "km/h", precipitation: "mm" },
      source: "Open-Meteo",
    });
    expect(data.location.timezone).toBe("Europe/Berlin");
    expect(data._display.blocks[0]?.text).toContain("**21.5 °C** · Partly cloudy");

    const [geocoding, forecast] = server.requests;
    expect(geocoding?.path).toBe(PATHS.geocoding);
    expect(geocoding?.query.get("name")).toBe("Berlin");
    expect(geocoding?.query.get("count")).toBe("1");
    expect(forecast?.path).toBe(PATHS.forecast);
    expect(forecast?.query.get("latitude")).toBe("52.52437");
    expect(forecast?.query.get("current")).toContain("temperature_2m");
    expect(forecast?.query.get("timezone")).toBe("auto");
    expect(forecast?.query.has("appid")).toBe(false);
  });

  it("imperial units are asked of Open-Meteo and labelled in the result", async () => {
    const data = expectSuccess(
      await invoke<CurrentWeatherResult>("get_weather", { city: "Portland", units: "imperial" }),
    );
    expect(data.temperature).toBe(70.7);
    expect(data.units).toEqual({
      system: "imperial",
      temperature: "°F",
      wind_speed: "mph",
      precipitation: "inch",
    });
    const forecast = server.requests[1]!;
    expect(forecast.query.get("temperature_unit")).toBe("fahrenheit");
    expect(forecast.query.get("wind_speed_unit")).toBe("mph");
    expect(forecast.query.get("precipitation_unit")).toBe("inch");
  });

  it("get_forecast asks for the number of days and answers one row per day", async () => {
    const data = expectSuccess(await invoke<ForecastResult>("get_forecast", { city: "Berlin", days: 7 }));
    expect(server.requests[1]?.query.get("forecast_days")).toBe("7");
    expect(data.days).toHaveLength(7);
    expect(data.days[1]).toEqual({
      date: "2025-06-02",
      condition: "Slight rain",
      temperature_max: 24,
      temperature_min: 15,
      precipitation: 4.1,
      precipitation_probability_pct: 80,
      wind_speed_max: 19,
    });
    const table = data._display.blocks[0]!.text;
    expect(table).toContain("### 7-day forecast · Berlin, Land Berlin, Germany");
    expect(
      table.split("\n").filter((line) => line.startsWith("| ") && /\d{1,2} [A-Z][a-z]{2} \|/.test(line)),
    ).toHaveLength(7);
  });

  it("get_forecast defaults to 3 days", async () => {
    const data = expectSuccess(await invoke<ForecastResult>("get_forecast", { city: "Berlin" }));
    expect(data.days.map((day) => day.date)).toEqual(["2025-06-01", "2025-06-02", "2025-06-03"]);
  });

  it("an unknown city (geocoding answers without results) is a tool failure", async () => {
    expectToolError(await invoke("get_weather", { city: "Atlantis" }), "city not found: Atlantis");
    expectToolError(await invoke("get_forecast", { city: "Atlantis", days: 2 }), "city not found: Atlantis");
    expect(server.requests.every((request) => request.path === PATHS.geocoding)).toBe(true);
  });

  it("days outside 1-7, a blank city and unknown units are invalid params, not tool failures", async () => {
    await expectInvalidParams(invoke("get_forecast", { city: "Berlin", days: 9 }), ["days"]);
    await expectInvalidParams(invoke("get_forecast", { city: "Berlin", days: 0 }), ["days"]);
    await expectInvalidParams(invoke("get_weather", { city: "   " }), ["city"]);
    await expectInvalidParams(invoke("get_weather", { city: "Berlin", units: "kelvin" }), ["units"]);
    await expectInvalidParams(invoke("get_weather", {}), ["city"]);
    expect(server.requests).toHaveLength(0);
  });

  it("429 is a tool failure that says to retry, with Retry-After", async () => {
    server.override(PATHS.geocoding, (_request, res) =>
      sendJson(res, 429, openMeteoError("Daily API request limit exceeded. Please try again tomorrow."), {
        "retry-after": "120",
      }),
    );
    const result = await invoke("get_weather", { city: "Berlin" });
    expectToolError(
      result,
      "Open-Meteo rate limit reached (HTTP 429 Too Many Requests): Daily API request limit exceeded",
    );
    expect(result.error).toContain("try again in 120 s");
    expect(result.data).toEqual({ source: "Open-Meteo", http_status: 429, retry_after_s: 120 });
  });

  it("5xx is a tool failure naming the service and status", async () => {
    server.override(PATHS.forecast, (_request, res) => {
      res.writeHead(503, { "content-type": "text/html" });
      res.end("<html><body>503 Service Temporarily Unavailable</body></html>");
    });
    const result = await invoke("get_forecast", { city: "Berlin" });
    expectToolError(result, "Open-Meteo is unavailable (HTTP 503 Service Unavailable); try again later");
  });

  it("Open-Meteo's 400 reason is passed on", async () => {
    server.override(PATHS.forecast, (_request, res) =>
      sendJson(res, 400, openMeteoError("Parameter 'forecast_days' is out of allowed range from 0 to 16")),
    );
    expectToolError(
      await invoke("get_forecast", { city: "Berlin" }),
      "Open-Meteo rejected the request (HTTP 400 Bad Request): Parameter 'forecast_days' is out of allowed range",
    );
  });

  it("a 200 that is not JSON, or not the documented shape, is a tool failure", async () => {
    server.override(PATHS.forecast, (_request, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>captive portal</html>");
    });
    expectToolError(
      await invoke("get_weather", { city: "Berlin" }),
      "Open-Meteo answered with something that is not JSON (HTTP 200, text/html)",
    );
    server.override(PATHS.forecast, (_request, res) => sendJson(res, 200, { latitude: 52.5, current: {} }));
    expectToolError(
      await invoke("get_weather", { city: "Berlin" }),
      "Open-Meteo answered in an unexpected shape: current.weather_code is missing",
    );
  });

  it("the invoke deadline aborts a slow upstream request and answers with the timeout error", async () => {
    server.override(PATHS.forecast, () => {
      // Never answers: a hung upstream.
    });
    const started = Date.now();
    const answer = plugin.client.request(
      "invoke",
      {
        tool: "get_weather",
        arguments: { city: "Berlin" },
        context: { invoke_id: "slow-upstream-1", deadline_ms: Date.now() + 600 },
      },
      10_000,
    );
    const error = await expectRpcError(answer, ServerErrorCode.TOOL_TIMEOUT, /timed out/);
    expect(error.data).toMatchObject({ tool: "get_weather" });
    expect(Date.now() - started).toBeLessThan(5000);
    const aborted = await server.waitForAbort(PATHS.forecast);
    expect(aborted.answered).toBe(false);

    // The plugin is still serving.
    server.reset();
    expectSuccess(await invoke("get_weather", { city: "Berlin" }));
  });
});

describe("OpenWeatherMap (WEATHER_API_KEY configured)", () => {
  const key = { WEATHER_API_KEY: VALID_OWM_KEY };

  it("get_weather asks /weather with the key, units and city, and converts m/s to km/h", async () => {
    const data = expectSuccess(await invoke<CurrentWeatherResult>("get_weather", { city: "Berlin" }, key));
    expect(data).toMatchObject({
      location: { name: "Berlin", country_code: "DE", utc_offset: "+02:00" },
      condition: "Moderate rain",
      temperature: 17.9,
      humidity_pct: 77,
      wind_speed: 14.8,
      wind_direction: "W",
      precipitation: 1.5,
      observed_at: "2025-06-01T14:15",
      source: "OpenWeatherMap",
    });
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.path).toBe(`${PATHS.owm}/weather`);
    expect(request.query.get("q")).toBe("Berlin");
    expect(request.query.get("units")).toBe("metric");
    expect(request.query.get("appid")).toBe(VALID_OWM_KEY);
  });

  it("get_forecast folds 3-hour slots into local days and notes the 5-day limit", async () => {
    const data = expectSuccess(
      await invoke<ForecastResult>("get_forecast", { city: "Portland", days: 7, units: "imperial" }, key),
    );
    expect(server.requests[0]?.path).toBe(`${PATHS.owm}/forecast`);
    expect(server.requests[0]?.query.get("units")).toBe("imperial");
    expect(data.days.length).toBeLessThan(7);
    expect(data.note).toMatch(/covers 5 days in 3-hour steps: \d of the 7 days asked for are available/);
    expect(data.units.temperature).toBe("°F");
    expect(data._display.blocks[0]?.text).toContain("<sub>OpenWeatherMap's forecast covers 5 days");
  });

  it("an unknown city (404 city not found) is a tool failure", async () => {
    expectToolError(await invoke("get_weather", { city: "Atlantis" }, key), "city not found: Atlantis");
  });

  it("a bad key (401) is a tool failure that names the credential, without the key", async () => {
    const result = await invoke("get_weather", { city: "Berlin" }, { WEATHER_API_KEY: BAD_KEY });
    expectToolError(result, "OpenWeatherMap refused the request (HTTP 401 Unauthorized): Invalid API key");
    expect(result.error).toContain("check the WEATHER_API_KEY credential");
    expect(result.data).toEqual({ source: "OpenWeatherMap", http_status: 401 });
  });

  it("429 from OpenWeatherMap is a tool failure", async () => {
    server.override(`${PATHS.owm}/forecast`, (_request, res) => sendJson(res, 429, OWM_RATE_LIMITED));
    expectToolError(
      await invoke("get_forecast", { city: "Berlin" }, key),
      /^OpenWeatherMap rate limit reached \(HTTP 429 Too Many Requests\): Your account is temporary blocked.*; try again later$/,
    );
  });

  it("5xx from OpenWeatherMap is a tool failure", async () => {
    server.override(`${PATHS.owm}/weather`, (_request, res) =>
      sendJson(res, 502, { cod: 502, message: "Bad gateway" }),
    );
    expectToolError(
      await invoke("get_weather", { city: "Berlin" }, key),
      "OpenWeatherMap is unavailable (HTTP 502 Bad Gateway): Bad gateway; try again later",
    );
  });

  it("an upstream that echoes the key in its error has it redacted", async () => {
    server.override(`${PATHS.owm}/weather`, (request, res) =>
      sendJson(res, 400, { cod: "400", message: `appid ${request.query.get("appid")} is not allowed here` }),
    );
    const result = await invoke("get_weather", { city: "Berlin" }, { WEATHER_API_KEY: BAD_KEY });
    expectToolError(
      result,
      "OpenWeatherMap rejected the request (HTTP 400 Bad Request): appid [redacted] is not allowed here",
    );
  });

  it("the deadline aborts a slow OpenWeatherMap request", async () => {
    server.override(`${PATHS.owm}/forecast`, () => {});
    await expectRpcError(
      plugin.client.request(
        "invoke",
        {
          tool: "get_forecast",
          arguments: { city: "Berlin" },
          context: { invoke_id: "slow-owm-1", deadline_ms: Date.now() + 500, credentials: key },
        },
        10_000,
      ),
      ServerErrorCode.TOOL_TIMEOUT,
    );
    await server.waitForAbort(`${PATHS.owm}/forecast`);
  });

  it("a blank key counts as none: Open-Meteo answers", async () => {
    const data = expectSuccess(
      await invoke<CurrentWeatherResult>("get_weather", { city: "Berlin" }, { WEATHER_API_KEY: "  " }),
    );
    expect(data.source).toBe("Open-Meteo");
  });
});

describe("unreachable upstream", () => {
  it("a refused connection is a tool failure naming the host", async () => {
    const closed = await startFakeWeatherServer();
    const { env, origin } = closed;
    await closed.close();
    const offline = await startWeatherBinary(env);
    try {
      const result = await offline.client.invoke("get_weather", { city: "Berlin" });
      expectToolError(result, `could not reach Open-Meteo at ${new URL(origin).host}`);
      expect(result.error).toMatch(/ECONNREFUSED/);
    } finally {
      await offline.client.close();
    }
  });

  it("an endpoint variable that is not a URL is a tool failure and makes health say so", async () => {
    const broken = await startWeatherBinary({ WEATHER_FORECAST_URL: "ftp://example.invalid/forecast" });
    try {
      expectToolError(
        await broken.client.invoke("get_weather", { city: "Berlin" }),
        'WEATHER_FORECAST_URL must be an http:// or https:// URL, got "ftp://example.invalid/forecast"',
      );
      const health = await broken.client.health();
      expect(health.status).toBe("error");
      expect(health.message).toContain("WEATHER_FORECAST_URL");
    } finally {
      await broken.client.close();
    }
  });
});

describe("health and secrecy", () => {
  it("health is ready and shows the endpoints without query strings", async () => {
    const health = await plugin.client.health();
    expect(health.status).toBe("ready");
    expect(health.details).toEqual({
      geocoding: server.env.WEATHER_GEOCODING_URL,
      forecast: server.env.WEATHER_FORECAST_URL,
      openweathermap: server.env.WEATHER_OWM_URL,
    });
  });

  it("no key appears in any result, error or log line", async () => {
    // Runs last in this file: everything above sent both keys.
    expect(seen.length).toBeGreaterThan(10);
    expect(plugin.stderr.some((line) => line.includes("GET 127.0.0.1"))).toBe(true);
    for (const secret of [VALID_OWM_KEY, BAD_KEY]) {
      expect(seen.filter((text) => text.includes(secret))).toEqual([]);
      expect(plugin.stderr.filter((line) => line.includes(secret))).toEqual([]);
    }
  });
});
