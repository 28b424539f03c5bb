import { PluginDefinitionError } from "./definition-error.js";

/** A tool or plugin without the description an LLM chooses it by. */
export class MissingDescriptionError extends PluginDefinitionError {
  override readonly name = "MissingDescriptionError";
}
