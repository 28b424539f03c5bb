import { PluginDefinitionError } from "./definition-error.js";

/** `@Param()` without a (valid) argument name. */
export class MissingParamNameError extends PluginDefinitionError {
  override readonly name = "MissingParamNameError";
}
