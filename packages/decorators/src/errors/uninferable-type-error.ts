import { PluginDefinitionError } from "./definition-error.js";

/** A parameter or DTO property whose type reflection cannot tell (`Object`, a union, an interface) and that has no explicit `type`. */
export class UninferableTypeError extends PluginDefinitionError {
  override readonly name = "UninferableTypeError";
}
