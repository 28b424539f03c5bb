import type { ReverseChannel } from "../context/reverse-channel.js";

/** The request a traced call came as: Executa's `invoke` or MCP's `tools/call`. */
export type CallMethod = "invoke" | "tools/call";

/** How a call ended: a value, the tool's own failure (`ToolError`), or an error answer. */
export type CallOutcome = "success" | "tool_error" | "error";

/** W3C trace context of the caller (`traceparent`, `tracestate`), as it came in `_meta`. */
export type TraceContext = {
  traceparent: string;
  tracestate?: string;
};

/** One call being recorded: its span, and its count and duration once it ends. */
export interface CallTrace {
  /** Runs the tool's handler with the call's span as the active one. */
  within<T>(fn: () => T): T;
  /** `channel` with each reverse request recorded as a child span of the call. */
  channel(channel: ReverseChannel): ReverseChannel;
  /** Ends the span and records the call's count and duration. */
  end(outcome: CallOutcome, error?: unknown): void;
}

/**
 * What the server records calls through. Only exists when OpenTelemetry is configured:
 * without it the server holds none, and a call pays one branch.
 */
export interface Telemetry {
  /** Starts recording a call, a child of `parent` when the caller sent one. */
  startCall(method: CallMethod, tool: string, parent: TraceContext | undefined): CallTrace;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}
