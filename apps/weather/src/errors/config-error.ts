import { ToolError } from "@executa/core";

/** The plugin's environment is misconfigured (e.g. an endpoint that is not an http(s) URL). */
export class ConfigError extends ToolError {
  override readonly name = "ConfigError";
}
