import { PluginDefinitionError } from "./definition-error.js";

/** A decorator option with a bad value: plugin name or version, tool name or timeout, an enum that does not fit the type, a default of the wrong type, … */
export class InvalidOptionError extends PluginDefinitionError {
  override readonly name = "InvalidOptionError";
}
