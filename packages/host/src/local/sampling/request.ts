import {
  type OnUnsupported,
  RESPONSE_FORMAT_LIMITS,
  type ResponseFormat,
  type ReverseParams,
  RpcError,
  SamplingErrorCode,
} from "@executa/core";
import { reverseMethodSpec, schemaLimitProblem, shapeCheckOf } from "@executa/core/internal";

/** A structured-output request: JSON mode, or a strict JSON schema (core's `ResponseFormat`). */
export type ResponseFormatParam = ResponseFormat;

/** One message of a sampling request, reduced to its text. */
export interface SamplingMessage {
  role: "user" | "assistant" | "system";
  text: string;
}

/** A validated `sampling/createMessage` request. */
export interface SamplingRequest {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  /** MCP model preferences; `hints[].name` are model name hints. */
  modelHints: string[];
  /** `{type: "json_object"}` or `{type: "json_schema", json_schema}`; absent means text. */
  responseFormat?: ResponseFormatParam | { type: "text" };
  /** What to do when the model cannot honour `responseFormat`; absent means "error". */
  onUnsupported?: OnUnsupported;
  metadata?: Record<string, unknown>;
}

/** A responder's answer, before the provider adds usage and `_meta`. */
export interface SamplingReply {
  text: string;
  model: string;
  stopReason: string;
  usage?: { inputTokens: number; outputTokens: number };
}

/** Produces completions: echo, a script, or an upstream model. */
export interface SamplingResponder {
  /** Names the mode in `_meta.provider`. */
  readonly name: string;
  /**
   * The structured formats the model honours; a request for another one is handled per
   * its `onUnsupported`. Default: both.
   */
  readonly responseFormats?: readonly ("json_object" | "json_schema")[];
  respond(
    request: SamplingRequest,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<SamplingReply>;
}

const CREATE_MESSAGE = reverseMethodSpec("sampling/createMessage");

/** Params of `sampling/createMessage`, as its row of core's capability-family table types them. */
type CreateMessageParams = ReverseParams<"sampling/createMessage">;

/**
 * Validates `sampling/createMessage` params against the method's params schema (messages
 * with text content, a positive `maxTokens`, `includeContext` "none" only), then this
 * host's own rules (a temperature from 0 to 2, a response-format schema within limits);
 * bad input answers -32004 naming the field.
 */
export function readSamplingRequest(params: Record<string, unknown>): SamplingRequest {
  const issue = shapeCheckOf(CREATE_MESSAGE.params)(params);
  if (issue) throw invalid(`${issue.path || "params"} ${issue.problem}`, { path: issue.path });
  const typed = params as CreateMessageParams;
  const request: SamplingRequest = {
    messages: typed.messages.map(({ role, content }) => ({ role, text: content.text })),
    maxTokens: typed.maxTokens,
    modelHints: (typed.modelPreferences?.hints ?? []).flatMap((hint) =>
      hint.name === undefined ? [] : [hint.name],
    ),
  };
  if (typed.temperature !== undefined && !(typed.temperature >= 0 && typed.temperature <= 2)) {
    throw invalid("temperature must be a number from 0 to 2");
  }
  if (typed.responseFormat?.type === "json_schema") checkJsonSchemaFormat(typed.responseFormat.json_schema);
  const { systemPrompt, temperature, stopSequences, responseFormat, onUnsupported, metadata } = typed;
  const options = { systemPrompt, temperature, stopSequences, responseFormat, onUnsupported, metadata };
  for (const [name, value] of Object.entries(options))
    if (value !== undefined) Object.assign(request, { [name]: value });
  return request;
}

/** This host's limits on a `json_schema` response format: its name's pattern and the schema's size. */
function checkJsonSchemaFormat(spec: { name: string; schema: object }): void {
  const fail = (problem: string, data: Record<string, unknown> = {}): never => {
    throw invalid(`responseFormat.json_schema${problem}`, { reason: "invalid_response_format", ...data });
  };
  if (!RESPONSE_FORMAT_LIMITS.namePattern.test(spec.name)) {
    fail(`.name must match ${RESPONSE_FORMAT_LIMITS.namePattern}, got ${JSON.stringify(spec.name)}`);
  }
  const problem = schemaLimitProblem(spec.schema as Record<string, unknown>);
  if (problem) fail(`.schema ${problem.message}`, problem.data);
}

function invalid(message: string, data?: unknown): RpcError {
  return new RpcError(SamplingErrorCode.INVALID_REQUEST, `${CREATE_MESSAGE.method}: ${message}`, data);
}

/** The text the local responders look at: the last user message. */
export function lastUserText(request: SamplingRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]!;
    if (message.role === "user") return message.text;
  }
  return request.messages[request.messages.length - 1]?.text ?? "";
}

/** A rough token count (≈ 4 characters per token) for local responders. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Cuts a local reply to `maxTokens` (by the same estimate). */
export function fitToMaxTokens(text: string, maxTokens: number): { text: string; truncated: boolean } {
  const limit = maxTokens * 4;
  return text.length > limit ? { text: text.slice(0, limit), truncated: true } : { text, truncated: false };
}
