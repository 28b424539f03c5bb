import { PluginDefinitionError } from "./definition-error.js";

/** `@Credential(name)` for a credential `@Plugin({ credentials })` does not declare. */
export class UndeclaredCredentialError extends PluginDefinitionError {
  override readonly name = "UndeclaredCredentialError";
}
