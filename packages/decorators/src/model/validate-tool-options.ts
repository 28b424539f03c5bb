import { TOOL_NAME_PATTERN } from "@executa/core";
import { sourceInfoOf } from "@executa/core/internal";
import { DefinitionError } from "../errors/definition-error.js";
import { snakeCase } from "../naming/snake-case.js";
import { TOOL_OPTION_KEYS } from "../options/option-keys.js";
import type { ToolOptions } from "../options/tool-options.js";
import { checkOptionKeys } from "./check-option-keys.js";

/** The checked `@Tool` options of one method: what the manifest and the model need. */
export interface ValidToolOptions {
  name: string;
  description: string;
  timeout?: number;
  streaming?: boolean;
  scopes?: readonly string[];
}

/** An OAuth scope token (RFC 6749 section 3.3): printable ASCII without space, `"` or `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * Checks that `@Tool` is on a method and that its options are usable: a description, a
 * name LLM function calling accepts (default: the method name in snake_case), a timeout
 * in whole seconds. Throws a {@link DefinitionError} naming the method and the fix.
 */
export function validateToolOptions(
  target: Function,
  className: string,
  methodName: string,
  given: ToolOptions | undefined,
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
  const documented = sourceInfoOf(target)?.methods?.[methodName]?.description;
  const options = toolOptions(className, methodName, given, documented);
  const description = checkDescription(className, methodName, options, documented);
  checkOptionKeys(options, TOOL_OPTION_KEYS, { className, member: methodName, decorator: "@Tool()" });
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
  if (options.scopes !== undefined) {
    const scopes: unknown = options.scopes;
    if (
      !Array.isArray(scopes) ||
      !scopes.every((scope) => typeof scope === "string" && SCOPE_TOKEN.test(scope))
    ) {
      throw fail(
        `scopes ${JSON.stringify(scopes)} is not a list of OAuth scope names`,
        'give scopes as an array of names without spaces or quotes, e.g. ["notes:read"]',
      );
    }
    valid.scopes = [...new Set(scopes as string[])];
  }
  return valid;
}

/** The options object; `@Tool()` without one is fine when the doc comment gives the description. */
function toolOptions(
  className: string,
  methodName: string,
  options: ToolOptions | undefined,
  documented: string | undefined,
): ToolOptions {
  if (options === undefined && documented !== undefined) return {};
  if (options === null || typeof options !== "object") {
    throw new DefinitionError(
      "TOOL_OPTIONS_MISSING",
      className,
      methodName,
      "@Tool() has no options and the method no doc comment the source reader read",
      'pass @Tool({ description: "What it does, for the LLM." }), or write it as the method\'s doc ' +
        "comment and build and run with the executa source reader (executa build, executa dev, the executa vitest plugin)",
    );
  }
  return options;
}

/** The explicit description, else the method's doc comment; one of them is required. */
function checkDescription(
  className: string,
  methodName: string,
  options: ToolOptions,
  documented: string | undefined,
): string {
  const description = options.description ?? documented;
  if (typeof description !== "string" || description.trim() === "") {
    throw new DefinitionError(
      "DESCRIPTION_MISSING",
      className,
      methodName,
      "the tool has no description",
      'add @Tool({ description: "…" }) or a doc comment on the method: the LLM chooses tools by their description',
    );
  }
  return description;
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
