import { HostError } from "../../errors/host-error.js";
import { EchoResponder } from "./echo-responder.js";
import { OpenAiRelayResponder, type RelayConfig } from "./openai-relay.js";
import type { SamplingResponder } from "./request.js";
import { ScriptResponder, type ScriptRule } from "./script-responder.js";

/** How the local host answers `sampling/createMessage`. */
export type SamplingConfig =
  | { mode: "echo" }
  /** A JSON script file (re-read on change) or inline rules. */
  | { mode: "script"; file: string }
  | { mode: "script"; rules: ScriptRule[] }
  | ({ mode: "relay" } & RelayConfig);

/**
 * The sampling configuration named by environment variables:
 * `EXECUTA_SAMPLING_BASE_URL` (+ `EXECUTA_SAMPLING_API_KEY`, `EXECUTA_SAMPLING_MODEL`)
 * relays to an OpenAI-compatible endpoint; else `EXECUTA_SAMPLING_SCRIPT` names a script
 * file; else echo.
 */
export function samplingConfigFromEnv(env: Record<string, string | undefined> = process.env): SamplingConfig {
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
 * @throws Error for an unreadable or malformed script, or a relay base URL that is not a URL.
 */
export function createResponder(config: SamplingConfig): SamplingResponder {
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
