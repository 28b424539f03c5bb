/**
 * The message of the -32603 a server answers when a tool throws anything but a
 * `ToolError` or an `RpcError`: an unexpected failure. `executa dev` recognizes it to point
 * the author at `ToolError`.
 */
export function toolThrewMessage(tool: string, message: string): string {
  return `Tool "${tool}" failed: ${message}`;
}

/** True for a message made by {@link toolThrewMessage}. */
export function isToolThrewMessage(message: string): boolean {
  return /^Tool ".*" failed: /s.test(message);
}
