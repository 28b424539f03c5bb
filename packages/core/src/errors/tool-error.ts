/**
 * An expected, recoverable tool failure ("city not found", "rate limited"). The server
 * answers it as `{ success: false, error: message }` so the LLM is told about it.
 */
export class ToolError extends Error {
  override readonly name: string = "ToolError";
  constructor(
    message: string,
    /** Optional data returned beside the error (as `data`). */
    readonly data?: unknown,
  ) {
    super(message);
  }
}
