import type { InvalidParamsError } from "../errors/invalid-params-error.js";
import { isObject } from "../manifest/manifest-issues.js";
import type { InvokeResult } from "../wire/invoke.js";
import type { McpFeatures } from "./versions.js";

/** A text content block. */
export interface McpTextContent {
  type: "text";
  text: string;
}

/** The result of `tools/call`. */
export interface McpCallToolResult {
  content: McpTextContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * Splits `_display` off a result: its Markdown blocks become text content (MCP has no
 * Markdown block; clients render text as Markdown), the rest is the data.
 */
function splitDisplay(data: unknown): { data: unknown; display: McpTextContent[] } {
  if (!isObject(data) || !("_display" in data)) return { data, display: [] };
  const { _display, ...rest } = data;
  const blocks = isObject(_display) && Array.isArray(_display.blocks) ? _display.blocks : [];
  const display = blocks
    .filter((block): block is { type: "markdown"; text: string } => block?.type === "markdown")
    .map((block) => ({ type: "text" as const, text: block.text }));
  return { data: rest, display };
}

/**
 * An Executa invoke answer as an MCP tool result: the data as JSON text (and as
 * `structuredContent` when the revision has it and the data is an object); a failed
 * invoke (`ToolError`) as `isError: true` with its message.
 */
export function callToolResult(result: InvokeResult, features: McpFeatures): McpCallToolResult {
  if (!result.success) {
    const failure: McpCallToolResult = {
      content: [{ type: "text", text: result.error ?? "tool failed" }],
      isError: true,
    };
    if (features.structuredContent) {
      failure.structuredContent = { error: result.error ?? "tool failed" };
      if (result.data !== undefined) failure.structuredContent.data = result.data;
    }
    return failure;
  }
  const { data, display } = splitDisplay(result.data ?? null);
  const answer: McpCallToolResult = { content: [{ type: "text", text: JSON.stringify(data) }, ...display] };
  if (features.structuredContent && isObject(data)) answer.structuredContent = data;
  return answer;
}

/**
 * Invalid arguments as a tool result the model can read and correct (2025-11-25): the
 * message (which names the arguments) as text, the issues as `structuredContent`.
 */
export function invalidArgumentsResult(error: InvalidParamsError): McpCallToolResult {
  return {
    content: [{ type: "text", text: error.message }],
    structuredContent: { error: error.message, ...(error.data as Record<string, unknown>) },
    isError: true,
  };
}
