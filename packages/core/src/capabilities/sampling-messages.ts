import type { CallOptions } from "./family.js";
import type { OnUnsupported, ResponseFormat, ResponseFormatReport } from "./response-format.js";

/** Who speaks a sampling message. */
export type SamplingRole = "user" | "assistant" | "system";

export interface TextContent {
  type: "text";
  text: string;
}

/** One chat message. A string `content` is sent as `{ type: "text", text }`. */
export interface SamplingMessage {
  role: SamplingRole;
  content: TextContent | string;
}

/** MCP model preferences: hints are tried in order; priorities are 0..1. */
export type ModelPreferences = {
  hints?: { name: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
};

/** Params of {@link SamplingClient.createMessage}. Wire names are the same. */
export interface CreateMessageRequest extends CallOptions {
  messages: SamplingMessage[];
  /** Required, above 0; the host enforces its own cap. */
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  /** Omit to let the host use the user's preferred model. */
  modelPreferences?: ModelPreferences;
  /** Only "none" is supported; sent as "none" by default. */
  includeContext?: "none";
  metadata?: Record<string, unknown>;
  /**
   * Structured output. A `json_schema` format is checked against the host's limits
   * (32 KB, depth 8, 512 nodes, name `^[a-zA-Z0-9_-]{1,64}$`) before sending: one that
   * breaks them fails locally with -32004. The answer is still `content.text`; the host's
   * verdict is in `_meta.responseFormat`.
   */
  responseFormat?: ResponseFormat;
  /** What the host does when the model cannot honour `responseFormat`. Host default: "error" (-32010). */
  onUnsupported?: OnUnsupported;
}

/** Token usage of one completion. */
export interface SamplingUsage {
  inputTokens?: number;
  outputTokens?: number;
  /** Sent by newer hosts; see {@link totalTokens} for a value that is always there. */
  totalTokens?: number;
  [key: string]: unknown;
}

/** The `_meta` block of a sampling result. */
export interface CreateMessageMeta {
  /** The host's report on `responseFormat`, when one was requested. */
  responseFormat?: ResponseFormatReport;
  [key: string]: unknown;
}

/** Result of `sampling/createMessage`. */
export interface CreateMessageResult {
  role: "assistant" | (string & {});
  content: { type: "text" | (string & {}); text?: string; [key: string]: unknown };
  model?: string;
  stopReason?: string;
  usage?: SamplingUsage;
  _meta?: CreateMessageMeta;
  [key: string]: unknown;
}

/** Total tokens of a completion: `usage.totalTokens` when the host sent it, else input + output. */
export function totalTokens(result: Pick<CreateMessageResult, "usage">): number {
  const usage = result.usage ?? {};
  if (typeof usage.totalTokens === "number") return usage.totalTokens;
  return (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}
