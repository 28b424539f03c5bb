import type { Logger } from "../log/logger.js";
import type { OtelModules } from "./otel-telemetry.js";
import type { Telemetry } from "./telemetry.js";

/**
 * The packages the OpenTelemetry SDK loads from: optional peer dependencies of
 * `@executa/core`, installed by the plugin's author who wants traces and metrics.
 */
export const OTEL_PACKAGES = ["@opentelemetry/api", "@opentelemetry/sdk-node"] as const;

/** The variables that say where OTLP goes; one of them set (and the SDK not disabled) turns telemetry on. */
const ENDPOINT_VARIABLES = [
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
] as const;

/** Whether the environment asks for OpenTelemetry export (an OTLP endpoint, `OTEL_SDK_DISABLED` not true). */
export function telemetryConfigured(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  return ENDPOINT_VARIABLES.some((name) => Boolean(env[name]?.trim()));
}

/**
 * Loads the OpenTelemetry SDK and starts it. Undefined, with an error logged, when its
 * packages are not installed or it fails to start: the plugin then serves untraced.
 */
export async function loadTelemetry(
  serviceName: string,
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Telemetry | undefined> {
  try {
    const [api, sdk] = await Promise.all(OTEL_PACKAGES.map(importOptional));
    // The glue too is imported only here: a plugin without OTLP configured never evaluates it.
    const { startOtelTelemetry } = await import("./otel-telemetry.js");
    return startOtelTelemetry({ api, sdk } as OtelModules, serviceName, env);
  } catch (error) {
    // The first line: Node's module-not-found message goes on with the whole require stack.
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    log.error(
      `OpenTelemetry is configured (OTEL_EXPORTER_OTLP_*) but could not start: ${reason}. ` +
        `Install ${OTEL_PACKAGES.join(" and ")} next to @executa/core to export traces and metrics; ` +
        "serving without them.",
    );
    return undefined;
  }
}

// A computed specifier, which bundlers leave alone: a plugin that does not use OpenTelemetry
// carries none of it, and one that does loads it from its own node_modules.
function importOptional(specifier: string): Promise<unknown> {
  return import(specifier);
}
