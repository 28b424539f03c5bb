import type { ParamIssue } from "@executa/core";
import type { ValidationError } from "class-validator";

/**
 * Flattens class-validator's error tree into one issue per failed constraint, with
 * `parent.child` paths (`address.city`, `stops.2.name`), like NestJS's ValidationPipe.
 */
export function flattenValidationErrors(errors: readonly ValidationError[], parent = ""): ParamIssue[] {
  const issues: ParamIssue[] = [];
  for (const error of errors) {
    const path = parent === "" ? error.property : `${parent}.${error.property}`;
    for (const message of Object.values(error.constraints ?? {})) {
      issues.push({ path, message: stripPropertyPrefix(message, error.property) });
    }
    if (error.children && error.children.length > 0) {
      // Not `push(...)`: a spread of ~125 000 element errors exceeds the call stack.
      for (const issue of flattenValidationErrors(error.children, path)) issues.push(issue);
    }
  }
  return issues;
}

/** class-validator's messages start with the property name ("days must not be …"); the path already says it. */
function stripPropertyPrefix(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}
