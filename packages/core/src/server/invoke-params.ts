import { InvalidParamsError } from "../errors/invalid-params-error.js";
import { isObject as isJsonObject } from "../manifest/manifest-issues.js";
import type { InvokeParams } from "../wire/invoke.js";

/** The invoke's id as the host gave it: `context.invoke_id`, else the v1 top-level `invoke_id`. */
export function invokeIdOf(params: InvokeParams): string | undefined {
  const fromContext = params.context?.invoke_id;
  if (typeof fromContext === "string") return fromContext;
  return typeof params.invoke_id === "string" ? params.invoke_id : undefined;
}

/**
 * Checks an `invoke`'s params (an object naming the tool, with object `arguments` and
 * `context` when present) and returns them with defaults. Throws an `InvalidParamsError`
 * saying what is wrong.
 */
export function parseInvokeParams(raw: unknown): InvokeParams {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new InvalidParamsError("invoke params must be an object with a string `tool`");
  }
  const params = raw as Record<string, unknown>;
  if (typeof params.tool !== "string" || params.tool === "") {
    throw new InvalidParamsError("invoke params must name the tool in a string `tool` (not `name`)", [
      { path: "tool", message: "required string", expected: "string" },
    ]);
  }
  const args = params.arguments;
  if (args !== undefined && args !== null && (typeof args !== "object" || Array.isArray(args))) {
    throw new InvalidParamsError("invoke `arguments` must be an object", [
      { path: "arguments", message: "must be an object", expected: "object" },
    ]);
  }
  const context = params.context;
  if (context !== undefined && context !== null && (typeof context !== "object" || Array.isArray(context))) {
    throw new InvalidParamsError("invoke `context` must be an object", [
      { path: "context", message: "must be an object", expected: "object" },
    ]);
  }
  return {
    tool: params.tool,
    arguments: (args ?? {}) as Record<string, unknown>,
    context: (context ?? {}) as InvokeParams["context"],
    invoke_id: typeof params.invoke_id === "string" ? params.invoke_id : undefined,
    _meta: isJsonObject(params._meta) ? params._meta : undefined,
  };
}
