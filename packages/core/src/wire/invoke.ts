/** Params and results of the host → plugin methods. */
import type { ClientCapabilities } from "./capability-families.js";

/** `params.context` of an `invoke`, injected by the host. */
export interface InvokeWireContext {
  /** Id of this invoke; echoed in every reverse call made on its behalf. */
  invoke_id?: string;
  /** Absolute deadline, Unix epoch milliseconds. */
  deadline_ms?: number;
  /** The host's name for the plugin. */
  plugin_name?: string;
  /** Credential name → value, only when the user configured them. */
  credentials?: Record<string, string>;
  [key: string]: unknown;
}

/** Params of `invoke`. Note: `tool`, not `name`. */
export interface InvokeParams {
  tool: string;
  arguments?: Record<string, unknown>;
  context?: InvokeWireContext;
  /** Older hosts put the invoke id here. */
  invoke_id?: string;
  /** Request metadata; W3C trace context (`traceparent`, `tracestate`) is read from it. */
  _meta?: Record<string, unknown>;
}

/** The `InvokeResult` shape the host decodes. */
export interface InvokeResult<D = unknown> {
  success: boolean;
  data?: D;
  error?: string;
  duration_ms?: number;
}

export type HealthStatus = "ready" | "error" | "initializing";

export const HEALTH_STATUSES: readonly HealthStatus[] = ["ready", "error", "initializing"];

/** Result of `health`. */
export interface HealthResult {
  status: HealthStatus;
  message?: string;
  details?: Record<string, unknown>;
}

export type ProtocolVersion = "2.0" | "1.1";

/** Params of `initialize` (v2 hosts). */
export interface InitializeParams {
  protocolVersion?: string;
  clientInfo?: { name?: string; version?: string };
  capabilities?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Result of `initialize`. */
export interface InitializeResult {
  protocolVersion: ProtocolVersion;
  serverInfo: { name: string; version: string };
  client_capabilities: ClientCapabilities;
  capabilities: Record<string, unknown>;
}
