import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type PluginTestClient, runBinary } from "@executa/testing";

/** The single executable `pnpm --filter @executa-apps/weather build` writes. */
export const WEATHER_BINARY = fileURLToPath(new URL("../../dist/weather", import.meta.url));

/** A running built plugin and every stderr line it wrote since start. */
export interface WeatherUnderTest {
  client: PluginTestClient;
  stderr: string[];
}

/**
 * Spawns the built binary over real pipes with `env` (debug logging on, and no
 * `WEATHER_API_KEY` inherited from the developer's shell), handshake done.
 */
export async function startWeatherBinary(env: Record<string, string | undefined>): Promise<WeatherUnderTest> {
  if (!existsSync(WEATHER_BINARY)) {
    throw new Error(
      `${WEATHER_BINARY} does not exist: build it first (pnpm build, or pnpm --filter @executa-apps/weather build)`,
    );
  }
  const client = await runBinary(WEATHER_BINARY, [], {
    env: { WEATHER_API_KEY: undefined, EXECUTA_LOG_LEVEL: "debug", ...env },
  });
  const stderr = [...client.stderr.recent];
  client.stderr.onLine((line) => stderr.push(line));
  return { client, stderr };
}
