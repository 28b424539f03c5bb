import { PluginDefinitionError } from "./definition-error.js";

/** One tool method mixing `@Param` and `@Args`, or using `@Args` twice. */
export class MixedParamStyleError extends PluginDefinitionError {
  override readonly name = "MixedParamStyleError";
}
