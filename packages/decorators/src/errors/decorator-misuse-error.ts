import { PluginDefinitionError } from "./definition-error.js";

/** A decorator used where it does not work: on a static member, a constructor parameter, a symbol-named method, or twice. */
export class DecoratorMisuseError extends PluginDefinitionError {
  override readonly name = "DecoratorMisuseError";
}
