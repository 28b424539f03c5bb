import { PluginDefinitionError } from "./definition-error.js";

/** A tool method parameter without a parameter decorator, so nothing would fill it. */
export class UndecoratedParameterError extends PluginDefinitionError {
  override readonly name = "UndecoratedParameterError";
}
