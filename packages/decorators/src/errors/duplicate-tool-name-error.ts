import { PluginDefinitionError } from "./definition-error.js";

/** Two tools of one plugin class share a name. */
export class DuplicateToolNameError extends PluginDefinitionError {
  override readonly name = "DuplicateToolNameError";
}
