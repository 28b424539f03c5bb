import { PluginDefinitionError } from "./definition-error.js";

/** The plugin instance could not be created (constructor needs arguments or threw). */
export class PluginInstanceError extends PluginDefinitionError {
  override readonly name = "PluginInstanceError";
}
