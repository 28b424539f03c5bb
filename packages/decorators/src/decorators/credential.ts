import { recordParam } from "./param-decorator.js";

/**
 * Fills this parameter with one credential's value (`string`, or `undefined` when not
 * configured). The name must be declared in `@Plugin({ credentials })`. When the
 * declaration says `required: true` and no value is configured, the invoke answers
 * `{ success: false, error }` without running the method.
 */
export function Credential(name: string): ParameterDecorator {
  return recordParam("@Credential()", { kind: "credential", name });
}
