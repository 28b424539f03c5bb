import { SamplingErrorCode } from "../wire/error-codes.js";
import { CapabilityError } from "./capability-error.js";
import { type CallOptions, type Family, methodSpec } from "./family.js";
import type { HostCaller } from "./host-call.js";
import { checkFields } from "./reply-shape.js";

/** A `sampling/*` call failed. Codes: {@link SamplingErrorCode}. */
export class SamplingError extends CapabilityError {
  static readonly codes = SamplingErrorCode;
  override readonly name = "SamplingError";
  readonly family = "sampling" as const;
  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(SamplingErrorCode, code, message, data, options);
  }
  /** The user declined this sampling request. */
  isUserDenied(): boolean {
    return this.code === SamplingErrorCode.USER_DENIED;
  }
  /** The selected model cannot honour `responseFormat` (and `onUnsupported` was "error"). */
  isUnsupportedResponseFormat(): boolean {
    return this.code === SamplingErrorCode.UNSUPPORTED_RESPONSE_FORMAT;
  }
  /** The invoke used up its sampling calls or tokens. */
  isLimitExceeded(): boolean {
    return (
      this.code === SamplingErrorCode.MAX_CALLS_EXCEEDED ||
      this.code === SamplingErrorCode.MAX_TOKENS_EXCEEDED
    );
  }
}

export const samplingFamily: Family<SamplingError> = {
  name: "sampling",
  codes: SamplingErrorCode,
  malformedReplyCode: SamplingErrorCode.PROVIDER_ERROR,
  error: (code, message, data, options) => new SamplingError(code, message, data, options),
};

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
export interface ModelPreferences {
  hints?: { name: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** Structured output: JSON mode, or a strict JSON schema (needs model support). */
export type ResponseFormat =
  | { type: "json_object" }
  | { type: "json_schema"; json_schema: { name: string; strict?: boolean; schema: Record<string, unknown> } };

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
  responseFormat?: ResponseFormat;
  /** What the host does when the model cannot honour `responseFormat`. Host default: "error". */
  onUnsupported?: "error" | "json_object" | "text";
}

/** Result of `sampling/createMessage`. */
export interface CreateMessageResult {
  role: "assistant" | (string & {});
  content: { type: "text" | (string & {}); text?: string; [key: string]: unknown };
  model?: string;
  stopReason?: string;
  usage?: { inputTokens?: number; outputTokens?: number };
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

const CREATE_MESSAGE = methodSpec("sampling/createMessage", 90_000);

/** Messages in their wire form, validated. Shared with `agent/complete`. */
export function wireMessages(family: Family, method: string, messages: unknown): unknown[] {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw family.error(family.codes.INVALID_REQUEST, `${method}: messages must be a non-empty array`);
  }
  return messages.map((message: unknown, index) => {
    const m = message as Partial<SamplingMessage> | null;
    if (!m || typeof m !== "object" || (m.role !== "user" && m.role !== "assistant" && m.role !== "system")) {
      throw family.error(
        family.codes.INVALID_REQUEST,
        `${method}: messages[${index}].role must be "user", "assistant" or "system"`,
      );
    }
    if (typeof m.content === "string") return { ...m, content: { type: "text", text: m.content } };
    if (!m.content || typeof m.content !== "object") {
      throw family.error(
        family.codes.INVALID_REQUEST,
        `${method}: messages[${index}].content must be a string or { type: "text", text }`,
      );
    }
    return m;
  });
}

/** `ctx.host.sampling`: LLM completions run by the host (`llm.sample`). */
export class SamplingClient {
  constructor(private readonly caller: HostCaller) {}

  /** Asks the host to run one completion (`sampling/createMessage`). Default timeout 90 s. */
  async createMessage(request: CreateMessageRequest): Promise<CreateMessageResult> {
    const method = CREATE_MESSAGE.method;
    this.caller.ensureAvailable(samplingFamily, CREATE_MESSAGE);
    const { timeoutMs, signal, messages, maxTokens, includeContext, ...rest } =
      request ?? ({} as CreateMessageRequest);
    const wire = wireMessages(samplingFamily, method, messages);
    if (!Number.isInteger(maxTokens) || maxTokens <= 0) {
      throw new SamplingError(
        SamplingErrorCode.INVALID_REQUEST,
        `${method}: maxTokens must be a positive integer`,
      );
    }
    const result = await this.caller.call<CreateMessageResult>(
      samplingFamily,
      CREATE_MESSAGE,
      { messages: wire, maxTokens, includeContext: includeContext ?? "none", ...rest },
      { timeoutMs, signal },
    );
    checkFields(samplingFamily, method, result, "", { role: "string", content: "object" });
    if (result.content !== undefined) {
      checkFields(samplingFamily, method, result.content, "content", { type: "string", text: "string" });
    }
    return result;
  }
}
