import { CapabilityError } from "../capabilities/capability-error.js";
import { StructuredOutputError } from "../capabilities/sampling-error.js";
import { RpcError } from "../errors/rpc-error.js";
import { ToolTimeoutError } from "../errors/timeout-error.js";
import { isToolThrewMessage } from "../errors/tool-threw.js";
import { JsonRpcErrorCode } from "../wire/error-codes.js";
import type { McpCallToolResult, McpTextContent } from "./call-result.js";

/**
 * A failure of the tool's own work as the `isError` result MCP gives the model (a client
 * shows the model a tool result, but rarely a JSON-RPC error): a timeout, a host
 * capability the client cannot provide or that failed (its code and data as JSON text), a
 * structured answer the model got wrong, an unexpected exception. Undefined for what stays
 * a JSON-RPC error: a failure of the request itself (unknown tool, the server stopping).
 */
export function toolFailureResult(error: unknown): McpCallToolResult | undefined {
  if (error instanceof ToolTimeoutError) return errorResult(error.message);
  if (error instanceof StructuredOutputError) {
    return errorResult(structuredOutputText(error), { code: error.code, data: error.data });
  }
  if (error instanceof CapabilityError) {
    const detail = error.data === undefined ? { code: error.code } : { code: error.code, data: error.data };
    return errorResult(error.message, detail);
  }
  if (isToolThrew(error)) return errorResult(error.message);
  return undefined;
}

/**
 * Under MCP the schema reaches the client's model only as an instruction in the prompt
 * (MCP sampling has no response format), so the fix is on that side.
 */
function structuredOutputText(error: StructuredOutputError): string {
  if (!error.downgraded) return error.message;
  return (
    `${error.message}. Under MCP the client's model is asked for JSON by instruction only ` +
    "(MCP sampling cannot bind a model to a schema). Fix: call the tool again, or choose a " +
    "model in the MCP client that follows JSON instructions"
  );
}

/** The -32603 a server answers for a tool that threw an unexpected exception (see `toolThrewMessage`). */
function isToolThrew(error: unknown): error is RpcError {
  return (
    error instanceof RpcError &&
    error.code === JsonRpcErrorCode.INTERNAL_ERROR &&
    isToolThrewMessage(error.message)
  );
}

function errorResult(text: string, detail?: unknown): McpCallToolResult {
  const content: McpTextContent[] = [{ type: "text", text }];
  if (detail !== undefined) content.push({ type: "text", text: JSON.stringify(detail) });
  return { content, isError: true };
}
