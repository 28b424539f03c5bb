import { PluginDefinitionError } from "./definition-error.js";

/** A class given to `buildPlugin` / `serve` that is not decorated with `@Plugin`, or has no tools. */
export class MissingPluginDecoratorError extends PluginDefinitionError {
  override readonly name = "MissingPluginDecoratorError";
}
