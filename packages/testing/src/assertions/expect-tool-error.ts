import type { InvokeResult } from "@executa/core";
import { fail, matches, show } from "./fail.js";

/**
 * Asserts an invoke failed the expected way — `success: false`, as a thrown `ToolError`
 * answers — and, when given, that its `error` message matches (substring or RegExp).
 * Returns the error message.
 *
 * @example
 * ```ts
 * expectToolError(await plugin.invoke("get_weather", { city: "Atlantis" }), /city not found/);
 * ```
 */
export function expectToolError(result: InvokeResult, matcher?: string | RegExp): string {
  if (typeof result !== "object" || result === null || typeof result.success !== "boolean") {
    fail(`expected an InvokeResult, got ${show(result)}`, result, { success: false }, expectToolError);
  }
  if (result.success) {
    fail(
      `expected a tool error (success: false), but the invoke succeeded with data ${show(result.data)}`,
      result,
      { success: false, error: matcher === undefined ? "<any>" : String(matcher) },
      expectToolError,
    );
  }
  const message = typeof result.error === "string" ? result.error : "";
  if (matcher !== undefined && !matches(message, matcher)) {
    fail(
      `expected the tool error to match ${String(matcher)}, got ${show(result.error)}`,
      message,
      matcher,
      expectToolError,
    );
  }
  return message;
}
