import { RESPONSE_FORMAT_TYPES } from "@executa/core";
import { HostError } from "../../errors/host-error.js";
import { EchoResponder } from "./echo-responder.js";
import { OpenAiRelayResponder, type RelayConfig } from "./openai-relay.js";
import type { SamplingResponder } from "./request.js";
import { ScriptResponder, type ScriptRule } from "./script-responder.js";
import type { StructuredFormat } from "./structured-output.js";

/** What the local model can do, whatever the mode. */
export interface ModelTraits {
  /**
   * The structured formats the model honours (default both); a request for another one
   * follows its `onUnsupported` — `[]` or `["json_object"]` reproduce a host whose model
   * lacks strict-schema support (-32010, or a downgrade).
   */
  responseFormats?: StructuredFormat[];
}

/** How the local host answers `sampling/createMessage`. */
export type SamplingConfig = ModelTraits &
  (
    | { mode: "echo" }
    /** A JSON script file (re-read on change) or inline rules. */
    | { mode: "script"; file: string }
    | { mode: "script"; rules: ScriptRule[] }
    | ({ mode: "relay" } & RelayConfig)
  );

/**
 * The sampling configuration named by environment variables:
 * `EXECUTA_SAMPLING_BASE_URL` (+ `EXECUTA_SAMPLING_API_KEY`, `EXECUTA_SAMPLING_MODEL`)
 * relays to an OpenAI-compatible endpoint; else `EXECUTA_SAMPLING_SCRIPT` names a script
 * file; else echo. `EXECUTA_SAMPLING_RESPONSE_FORMATS` (comma-separated `json_object`,
 * `json_schema`, or `none`) narrows what the model supports.
 */
export function samplingConfigFromEnv(env: Record<string, string | undefined> = process.env): SamplingConfig {
  const formats = env.EXECUTA_SAMPLING_RESPONSE_FORMATS;
  const config = modeFromEnv(env);
  if (formats !== undefined && formats.trim() !== "") {
    config.responseFormats =
      formats.trim() === "none" ? [] : (formats.split(",").map((f) => f.trim()) as StructuredFormat[]);
  }
  return config;
}

function modeFromEnv(env: Record<string, string | undefined>): SamplingConfig {
  const baseUrl = env.EXECUTA_SAMPLING_BASE_URL;
  if (baseUrl) {
    const config: SamplingConfig = { mode: "relay", baseUrl };
    if (env.EXECUTA_SAMPLING_API_KEY) config.apiKey = env.EXECUTA_SAMPLING_API_KEY;
    if (env.EXECUTA_SAMPLING_MODEL) config.model = env.EXECUTA_SAMPLING_MODEL;
    return config;
  }
  if (env.EXECUTA_SAMPLING_SCRIPT) return { mode: "script", file: env.EXECUTA_SAMPLING_SCRIPT };
  return { mode: "echo" };
}

/**
 * The responder for a configuration.
 * @throws Error for an unreadable or malformed script, a relay base URL that is not a URL,
 *   or `responseFormats` naming something other than `json_object` / `json_schema`.
 */
export function createResponder(config: SamplingConfig): SamplingResponder {
  const responder = responderFor(config);
  const formats = config.responseFormats;
  if (formats === undefined) return responder;
  const unknown = Array.isArray(formats)
    ? formats.find((format) => !RESPONSE_FORMAT_TYPES.includes(format))
    : formats;
  if (unknown !== undefined) {
    throw new HostError(
      "INVALID_SAMPLING_CONFIG",
      `responseFormats must list ${RESPONSE_FORMAT_TYPES.join(" and/or ")}, got ${JSON.stringify(unknown ?? formats)}`,
    );
  }
  return {
    name: responder.name,
    responseFormats: [...formats],
    respond: (request, options) => responder.respond(request, options),
  };
}

function responderFor(config: SamplingConfig): SamplingResponder {
  switch (config.mode) {
    case "echo":
      return new EchoResponder();
    case "script":
      return new ScriptResponder("file" in config ? { file: config.file } : { rules: config.rules });
    case "relay":
      return new OpenAiRelayResponder(config);
    default:
      throw new HostError(
        "INVALID_SAMPLING_CONFIG",
        `unknown sampling mode ${JSON.stringify((config as { mode?: unknown }).mode)}`,
      );
  }
}
