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
 * invoke (`ToolError`) as `isError: true` with its message, and its data as JSON text.
 * An error result carries no `structuredContent`: clients check that against the tool's
 * `outputSchema`, which describes a success.
 */
export function callToolResult(result: InvokeResult, features: McpFeatures): McpCallToolResult {
  if (!result.success) {
    const content: McpTextContent[] = [{ type: "text", text: result.error ?? "tool failed" }];
    if (result.data !== undefined) content.push({ type: "text", text: JSON.stringify(result.data) });
    return { content, isError: true };
  }
  const { data, display } = splitDisplay(result.data ?? null);
  const answer: McpCallToolResult = { content: [{ type: "text", text: JSON.stringify(data) }, ...display] };
  if (features.structuredContent && isObject(data)) answer.structuredContent = data;
  return answer;
}

/**
 * Invalid arguments as a tool result the model can read and correct (2025-11-25): the
 * message (which names the arguments) as text, then the issues as JSON text (no
 * `structuredContent` on an error result, as in {@link callToolResult}).
 */
export function invalidArgumentsResult(error: InvalidParamsError): McpCallToolResult {
  const content: McpTextContent[] = [{ type: "text", text: error.message }];
  if (error.data !== undefined) content.push({ type: "text", text: JSON.stringify(error.data) });
  return { content, isError: true };
}
