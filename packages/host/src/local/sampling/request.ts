import {
  ON_UNSUPPORTED_VALUES,
  type OnUnsupported,
  RESPONSE_FORMAT_LIMITS,
  type ResponseFormat,
  SamplingErrorCode,
} from "@executa/core";
import { schemaLimitProblem } from "@executa/core/internal";
import { ParamReader } from "../params.js";

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

const ROLES = ["user", "assistant", "system"] as const;

/**
 * Validates `sampling/createMessage` params (messages with text content, a positive
 * `maxTokens`, `includeContext` "none" only); bad input answers -32004.
 */
export function readSamplingRequest(params: Record<string, unknown>): SamplingRequest {
  const reader: ParamReader = new ParamReader(
    params,
    "sampling/createMessage",
    SamplingErrorCode.INVALID_REQUEST,
  );
  const rawMessages = reader.raw("messages");
  if (!Array.isArray(rawMessages) || rawMessages.length === 0)
    reader.fail("messages must be a non-empty list");
  const messages = rawMessages.map((message, index) => readMessage(reader, message, index));
  const maxTokens = reader.integer("maxTokens", 1);
  const include = reader.raw("includeContext");
  if (include !== undefined && include !== null && include !== "none") {
    reader.fail(`includeContext ${JSON.stringify(include)} is not supported; only "none"`);
  }
  return { messages, maxTokens, modelHints: readHints(reader), ...readGenerationOptions(reader) };
}

/** The optional members that steer generation; absent or null ones are left out. */
function readGenerationOptions(reader: ParamReader): Partial<SamplingRequest> {
  const options: Partial<SamplingRequest> = {};
  const systemPrompt = present(reader.raw("systemPrompt"));
  if (systemPrompt !== undefined) {
    if (typeof systemPrompt !== "string") reader.fail("systemPrompt must be a string");
    options.systemPrompt = systemPrompt;
  }
  const temperature = present(reader.raw("temperature"));
  if (temperature !== undefined) {
    if (typeof temperature !== "number" || !(temperature >= 0 && temperature <= 2)) {
      reader.fail("temperature must be a number from 0 to 2");
    }
    options.temperature = temperature;
  }
  const stops = present(reader.raw("stopSequences"));
  if (stops !== undefined) {
    if (!Array.isArray(stops) || stops.some((s) => typeof s !== "string")) {
      reader.fail("stopSequences must be a list of strings");
    }
    options.stopSequences = stops as string[];
  }
  const format = reader.optionalObject("responseFormat");
  if (format) options.responseFormat = readResponseFormat(reader, format);
  if (present(reader.raw("onUnsupported")) !== undefined)
    options.onUnsupported = reader.oneOf("onUnsupported", ON_UNSUPPORTED_VALUES);
  const metadata = reader.optionalObject("metadata");
  if (metadata) options.metadata = metadata;
  return options;
}

function readResponseFormat(
  reader: ParamReader,
  format: Record<string, unknown>,
): SamplingRequest["responseFormat"] {
  if (format.type !== "text" && format.type !== "json_object" && format.type !== "json_schema") {
    reader.fail('responseFormat.type must be "text", "json_object" or "json_schema"');
  }
  if (format.type !== "json_schema") return { type: format.type };
  const fail = (problem: string, data: Record<string, unknown> = {}): never =>
    reader.fail(`responseFormat.json_schema${problem}`, { reason: "invalid_response_format", ...data });
  const spec = format.json_schema;
  if (typeof spec !== "object" || spec === null || Array.isArray(spec))
    fail(" must be {name, strict?, schema}");
  const { name, strict, schema } = spec as Record<string, unknown>;
  if (typeof name !== "string" || !RESPONSE_FORMAT_LIMITS.namePattern.test(name))
    fail(`.name must match ${RESPONSE_FORMAT_LIMITS.namePattern}, got ${JSON.stringify(name)}`);
  if (strict !== undefined && typeof strict !== "boolean") fail(".strict must be a boolean");
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    fail(".schema must be a JSON Schema object");
  const problem = schemaLimitProblem(schema as Record<string, unknown>);
  if (problem) fail(`.schema ${problem.message}`, problem.data);
  return format as unknown as ResponseFormatParam;
}

/** The value, or undefined when it is absent or null. */
function present(value: unknown): unknown {
  return value === null ? undefined : value;
}

function readMessage(reader: ParamReader, message: unknown, index: number): SamplingMessage {
  const where = `messages[${index}]`;
  if (typeof message !== "object" || message === null) reader.fail(`${where} must be an object`);
  const { role, content } = message as Record<string, unknown>;
  if (!ROLES.includes(role as SamplingMessage["role"]))
    reader.fail(`${where}.role must be user, assistant or system`);
  const blocks = Array.isArray(content) ? content : [content];
  const texts = blocks.map((block, i) => {
    const b = block as Record<string, unknown> | null;
    if (typeof b !== "object" || b === null || b.type !== "text" || typeof b.text !== "string") {
      reader.fail(`${where}.content${Array.isArray(content) ? `[${i}]` : ""} must be {type: "text", text}`);
    }
    return b.text as string;
  });
  return { role: role as SamplingMessage["role"], text: texts.join("\n") };
}

function readHints(reader: ParamReader): string[] {
  const preferences = reader.optionalObject("modelPreferences");
  const hints = preferences?.hints;
  if (!Array.isArray(hints)) return [];
  return hints.flatMap((hint) =>
    typeof hint === "object" && hint !== null && typeof (hint as { name?: unknown }).name === "string"
      ? [(hint as { name: string }).name]
      : [],
  );
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
