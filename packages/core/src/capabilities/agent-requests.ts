import type { CallOptions } from "./family.js";
import type { ModelPreferences, SamplingMessage } from "./sampling-messages.js";

export interface AgentSessionCreateOptions extends CallOptions {
  /** Default "agent" (the host's agent loop). */
  kind?: string;
  /** For `kind: "agent"`: "auto" (default; the host routes tools) or "fixed" (needs `fixedClientId`). */
  agentSubmode?: "auto" | "fixed" | (string & {});
  fixedClientId?: string;
  label?: string;
  quotaCaps?: Record<string, unknown>;
  /** Session-level system prompt for every run. */
  systemPrompt?: string;
  /** Idle lifetime of the session, seconds. */
  ttlSeconds?: number;
}

/** Result of `agent/session.create`. The session token stays with the host. */
export interface AgentSessionInfo {
  app_session_uuid: string;
  expires_in?: number;
  kind?: string;
  agent_submode?: string | null;
  fixed_client_id?: string | null;
  granted_tools?: string[];
  inherit_host_tools?: boolean;
  [key: string]: unknown;
}

export interface AgentRunOptions extends CallOptions {
  attachments?: unknown[];
  recursionLimit?: number;
  runId?: string;
  /** Overrides the session's system prompt for this run only. */
  systemPrompt?: string;
}

/** Result of `agent/session.run` (buffered: every frame of the run, then `final`). */
export interface AgentRunResult {
  run_id?: string;
  stream_id?: string;
  frames: unknown[];
  final?: unknown;
  [key: string]: unknown;
}

export interface AgentSessionListOptions extends CallOptions {
  includeExpired?: boolean;
  limit?: number;
}

export interface AgentRefreshOptions extends CallOptions {
  ttlSeconds?: number;
}

/** Lifecycle answers (`cancel`, `history`, `delete`, `list`, `refresh`), as the host sends them. */
export type AgentLifecycleResult = Record<string, unknown>;

/** One entry of `agent/session.list`. */
export interface AgentSessionSummary {
  app_session_uuid: string;
  kind?: string;
  submode?: string;
  fixed_client_id?: string | null;
  label?: string;
  created_at?: string;
  last_active_at?: string;
  expires_at?: string;
  [key: string]: unknown;
}

/** Params of {@link AgentClient.complete}: a stateless completion, sampling-like. */
export interface AgentCompleteRequest extends CallOptions {
  messages: SamplingMessage[];
  maxTokens?: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: ModelPreferences;
  metadata?: Record<string, unknown>;
}
