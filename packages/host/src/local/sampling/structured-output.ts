import { type ResponseFormat, RpcError, SamplingErrorCode } from "@executa/core";
import { type SchemaIssue, schemaIssues } from "./json-schema-check.js";
import type { ResponseFormatParam, SamplingRequest } from "./request.js";

/** The structured formats a model can honour. */
export type StructuredFormat = ResponseFormat["type"];

/** What the host asks the model for, given what the plugin requested and the model supports. */
export interface ResponseFormatPlan {
  requested: ResponseFormatParam;
  /** Sent to the model; undefined means plain text. */
  applied: ResponseFormatParam | undefined;
  downgraded: boolean;
}

/**
 * Decides the format the model is asked for, as a real host does: the requested one when
 * the model supports it, else per `onUnsupported` (default "error"): -32010, JSON mode,
 * or plain text (`downgraded: true` for the last two).
 * @returns undefined when no structured output was requested.
 * @throws RpcError -32010 UNSUPPORTED_RESPONSE_FORMAT.
 */
export function planResponseFormat(
  request: SamplingRequest,
  supported: readonly StructuredFormat[],
): ResponseFormatPlan | undefined {
  const requested = request.responseFormat;
  if (!requested || requested.type === "text") return undefined;
  if (supported.includes(requested.type)) return { requested, applied: requested, downgraded: false };
  const fallback = request.onUnsupported ?? "error";
  if (fallback === "text") return { requested, applied: undefined, downgraded: true };
  if (fallback === "json_object" && requested.type === "json_schema" && supported.includes("json_object")) {
    return { requested, applied: { type: "json_object" }, downgraded: true };
  }
  throw new RpcError(
    SamplingErrorCode.UNSUPPORTED_RESPONSE_FORMAT,
    `sampling/createMessage: the model does not support responseFormat ${requested.type}` +
      (fallback === "error" ? ' (onUnsupported is "error")' : ` nor the ${fallback} fallback`),
    { requested: requested.type, onUnsupported: fallback, supported: [...supported] },
  );
}

/**
 * The host's report in `_meta.responseFormat`: the requested and applied types, whether
 * it downgraded, and whether the answer is valid against what was requested (JSON for
 * `json_object`, the schema for `json_schema`) — informational, as on a real host.
 */
export function responseFormatReport(plan: ResponseFormatPlan, text: string): Record<string, unknown> {
  const issues = structuredIssues(plan.requested, text);
  return {
    type: plan.requested.type,
    applied: plan.applied?.type ?? "text",
    downgraded: plan.downgraded,
    structuredValid: issues.length === 0,
    ...(issues.length > 0 ? { issues: issues.slice(0, 20) } : {}),
  };
}

/** Why `text` is not a valid answer to `format` (empty when it is). */
function structuredIssues(format: ResponseFormatParam, text: string): SchemaIssue[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return [{ path: "", message: `not JSON: ${(error as Error).message}` }];
  }
  if (format.type === "json_schema") return schemaIssues(value, format.json_schema.schema);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [{ path: "", message: "must be a JSON object" }];
  }
  return [];
}

/**
 * A recorded `sampling/createMessage` answer (a fixture line's result) with the report a
 * host adds: when the call asked for structured output and the answer carries no
 * `_meta.responseFormat`, one is added saying whether `content.text` fits the request.
 * Other answers are returned as they are.
 */
export function withRecordedReport(params: Record<string, unknown>, result: unknown): unknown {
  const format = params.responseFormat as ResponseFormatParam | { type: "text" } | undefined;
  if (typeof result !== "object" || result === null || !isStructured(format)) return result;
  const answer = result as { content?: { text?: unknown }; _meta?: Record<string, unknown> };
  if (answer._meta?.responseFormat !== undefined || typeof answer.content?.text !== "string") return result;
  const plan: ResponseFormatPlan = { requested: format, applied: format, downgraded: false };
  return {
    ...answer,
    _meta: { ...answer._meta, responseFormat: responseFormatReport(plan, answer.content.text) },
  };
}

function isStructured(format: unknown): format is ResponseFormatParam {
  if (typeof format !== "object" || format === null) return false;
  const { type, json_schema: spec } = format as { type?: unknown; json_schema?: { schema?: unknown } };
  if (type === "json_object") return true;
  return type === "json_schema" && typeof spec?.schema === "object" && spec.schema !== null;
}
