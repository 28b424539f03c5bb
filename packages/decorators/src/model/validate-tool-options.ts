import { TOOL_NAME_PATTERN } from "@executa/core";
import { DefinitionError } from "../errors/definition-error.js";
import { snakeCase } from "../naming/snake-case.js";
import type { ToolOptions } from "../options/tool-options.js";

/** The checked `@Tool` options of one method: what the manifest and the model need. */
export interface ValidToolOptions {
  name: string;
  description: string;
  timeout?: number;
  streaming?: boolean;
}

/**
 * Checks that `@Tool` is on a method and that its options are usable: a description, a
 * name LLM function calling accepts (default: the method name in snake_case), a timeout
 * in whole seconds. Throws a {@link DefinitionError} naming the method and the fix.
 */
export function validateToolOptions(
  target: Function,
  className: string,
  methodName: string,
  options: ToolOptions,
): ValidToolOptions {
  if (typeof (target.prototype as Record<string, unknown>)[methodName] !== "function") {
    throw new DefinitionError(
      "DECORATOR_MISPLACED",
      className,
      methodName,
      "@Tool() is on something that is not a method",
      "put @Tool() on a method",
    );
  }
  const description = checkDescription(className, methodName, options);
  const valid: ValidToolOptions = { name: checkName(className, methodName, options), description };
  const fail = (problem: string, fix: string) =>
    new DefinitionError("INVALID_OPTION", className, methodName, problem, fix);
  if (options.timeout !== undefined) {
    if (!(Number.isInteger(options.timeout) && options.timeout > 0)) {
      throw fail(
        `timeout ${JSON.stringify(options.timeout)} is not a whole number of seconds`,
        "give timeout as a positive integer, in seconds",
      );
    }
    valid.timeout = options.timeout;
  }
  if (options.streaming !== undefined) {
    if (typeof options.streaming !== "boolean")
      throw fail("streaming is not a boolean", "give streaming: true or false, or leave it out (reserved)");
    valid.streaming = options.streaming;
  }
  return valid;
}

function checkDescription(className: string, methodName: string, options: ToolOptions): string {
  if (options === null || typeof options !== "object") {
    throw new DefinitionError(
      "TOOL_OPTIONS_MISSING",
      className,
      methodName,
      "@Tool() has no options",
      'pass @Tool({ description: "What it does, for the LLM." })',
    );
  }
  if (typeof options.description !== "string" || options.description.trim() === "") {
    throw new DefinitionError(
      "DESCRIPTION_MISSING",
      className,
      methodName,
      "the tool has no description",
      'add @Tool({ description: "…" }): the LLM chooses tools by their description',
    );
  }
  return options.description;
}

function checkName(className: string, methodName: string, options: ToolOptions): string {
  const name = options.name ?? snakeCase(methodName);
  if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
    throw new DefinitionError(
      "INVALID_OPTION",
      className,
      methodName,
      `tool name ${JSON.stringify(name)} is not usable`,
      "use 1-64 letters, digits, _ or - (e.g. get_weather)",
    );
  }
  return name;
}
