import type { McpCallToolResult } from "./call-result.js";

/** Longest frame an MCP client's stdio reader accepts (both official SDKs drop the connection past it). */
export const MCP_MAX_FRAME_BYTES = 10 * 1024 * 1024;

/**
 * What a `tools/call` result may take of {@link MCP_MAX_FRAME_BYTES}: the readers count the
 * unread rest of the previous chunk with the frame, and the envelope (`jsonrpc`, `id`,
 * `resultType`, `_meta`) comes on top, so 128 KiB stay free.
 */
export const MCP_RESULT_BUDGET_BYTES = MCP_MAX_FRAME_BYTES - 128 * 1024;

/** A result's size on the wire, in bytes. */
function wireBytes(result: unknown): number {
  return Buffer.byteLength(JSON.stringify(result));
}

/**
 * A bound on a successful result's size without serializing it: its `structuredContent`
 * is the data its first text block holds as JSON, and a UTF-16 unit is at most 3 bytes.
 * Undefined for results of another shape, which are measured.
 */
function quickBound(result: McpCallToolResult): number | undefined {
  if (result.isError) return undefined;
  const chars = result.content.reduce((sum, block) => sum + block.text.length, 0);
  const data = result.structuredContent === undefined ? 0 : (result.content[0]?.text.length ?? 0);
  return 3 * (chars + data) + 1024 + 32 * result.content.length;
}

/**
 * A `tools/call` result that fits in one MCP frame. A result carrying its data twice (as
 * JSON text and as `structuredContent`) keeps only `structuredContent` and a short text
 * saying so when that makes it fit; a result that still does not fit becomes an `isError`
 * result naming the size of its smallest form (the data once, as it would be sent) and the
 * limit, so the client's connection survives and the model can ask for less.
 */
export function fitCallResult(
  result: McpCallToolResult,
  budget: number = MCP_RESULT_BUDGET_BYTES,
): McpCallToolResult {
  const bound = quickBound(result);
  if (bound !== undefined && bound <= budget) return result;
  const bytes = wireBytes(result);
  if (bytes <= budget) return result;
  const single = dataOnce(result);
  if (single === undefined) return tooLargeResult(bytes, budget);
  const singleBytes = wireBytes(single);
  return singleBytes <= budget ? single : tooLargeResult(singleBytes, budget);
}

/**
 * A successful result with `structuredContent` whose first text block, the same data as
 * JSON, is replaced by a short note; undefined for a result that carries its data once.
 */
function dataOnce(result: McpCallToolResult): McpCallToolResult | undefined {
  if (result.structuredContent === undefined || result.isError) return undefined;
  const [first, ...rest] = result.content;
  const note = `The result (${first ? Buffer.byteLength(first.text) : 0} bytes of JSON) is in structuredContent.`;
  return { ...result, content: [{ type: "text", text: note }, ...rest] };
}

/** The `isError` result standing in for one too large for a frame. */
export function tooLargeResult(bytes: number, budget: number = MCP_RESULT_BUDGET_BYTES): McpCallToolResult {
  return {
    content: [
      {
        type: "text",
        text:
          `result_too_large: the tool's result is ${bytes} bytes, over the ${budget}-byte limit of one MCP ` +
          `message (clients drop frames over ${MCP_MAX_FRAME_BYTES} bytes). Call the tool again asking for ` +
          "less data (fewer rows, a narrower range, a page).",
      },
    ],
    isError: true,
  };
}
