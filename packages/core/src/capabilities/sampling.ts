import type { StandardSchemaV1 } from "../schema/standard/standard-schema.js";
import { type ReverseParams, reverseMethodSpec } from "../wire/capability-families.js";
import { SamplingErrorCode } from "../wire/error-codes.js";
import { type CreatedObject, type CreateObjectRequest, createObject } from "./create-object.js";
import type { Family } from "./family.js";
import type { HostCaller } from "./host-call.js";
import type { ObjectTarget } from "./object-schema.js";
import { checkResponseFormat, ON_UNSUPPORTED_VALUES, type OnUnsupported } from "./response-format.js";
import { SamplingError, samplingFamily } from "./sampling-error.js";
import {
  type CreateMessageRequest,
  type CreateMessageResult,
  type SamplingMessage,
  type SamplingRole,
  type TextContent,
  totalTokens,
} from "./sampling-messages.js";

export { SamplingError, StructuredOutputError, samplingFamily } from "./sampling-error.js";

const CREATE_MESSAGE = reverseMethodSpec("sampling/createMessage");

/** Messages in their wire form, validated. Shared with `agent/complete`. */
export function wireMessages(
  family: Family,
  method: string,
  messages: unknown,
): ReverseParams<"sampling/createMessage">["messages"] {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw family.error(family.codes.INVALID_REQUEST, `${method}: messages must be a non-empty array`);
  }
  // Roles and the rest of each message's shape are checked against the method's params schema when sent.
  const wire = messages.map((message: unknown, index) => {
    const m = message as Partial<SamplingMessage> | null;
    if (!m || typeof m !== "object") return m;
    if (typeof m.content === "string") return { ...m, content: { type: "text", text: m.content } };
    if (!m.content || typeof m.content !== "object") {
      throw family.error(
        family.codes.INVALID_REQUEST,
        `${method}: messages[${index}].content must be a string or { type: "text", text }`,
      );
    }
    return m;
  });
  return wire as { role: SamplingRole; content: TextContent }[];
}

/** `ctx.host.sampling`: LLM completions run by the host (`llm.sample`). */
export class SamplingClient {
  /** Built with the invoke's host caller by core (`ctx.host`); plugin code never constructs one. @internal */
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
    checkStructuredOutput(method, rest.responseFormat, rest.onUnsupported);
    // Hosts may omit fields the result type names; a field that is there has its type.
    const result = (await this.caller.call(
      samplingFamily,
      CREATE_MESSAGE,
      { messages: wire, maxTokens, includeContext: includeContext ?? "none", ...rest },
      { timeoutMs, signal },
    )) as CreateMessageResult;
    return withTotalTokens(result);
  }

  /**
   * A completion constrained by the JSON Schema of `target` (a class read as a DTO by
   * `@executa/decorators`), answered as a validated instance of it:
   *
   * ```ts
   * const { object } = await ctx.host.sampling.createObject(SummaryDto, { messages, retries: 1 });
   * ```
   *
   * `target` may also be a Standard Schema of objects (a zod 4 schema, a valibot one wrapped
   * with `toStandardJsonSchema`): the format comes from its JSON Schema, the answer is
   * checked by the library's own `validate` and `object` is its output value.
   *
   * Sends `responseFormat: { type: "json_schema", … }` (name: the class name), parses the
   * answer and validates it. An answer that is not JSON or does not validate is fed back
   * to the model with the problems found `retries` times, then rejects with
   * {@link StructuredOutputError} (which says whether the host downgraded the request).
   * Where the model may not be bound to the schema (an MCP client; `onUnsupported`
   * `"text"` or `"json_object"` over Executa), the schema also goes into the system
   * prompt, and a downgraded retry restates it beside the issues.
   */
  createObject<S extends StandardSchemaV1>(
    target: S,
    request: CreateObjectRequest,
  ): Promise<CreatedObject<StandardSchemaV1.InferOutput<S>>>;
  /** `createObject` with a class as its target; see the overload above. */
  createObject<T extends object>(
    target: ObjectTarget<T>,
    request: CreateObjectRequest,
  ): Promise<CreatedObject<T>>;
  createObject(
    target: ObjectTarget | StandardSchemaV1,
    request: CreateObjectRequest,
  ): Promise<CreatedObject<unknown>> {
    return createObject(this, target as ObjectTarget, request);
  }
}

function checkStructuredOutput(method: string, format: unknown, onUnsupported: unknown): void {
  if (format !== undefined) checkResponseFormat(method, format);
  if (onUnsupported !== undefined && !ON_UNSUPPORTED_VALUES.includes(onUnsupported as OnUnsupported)) {
    throw new SamplingError(
      SamplingErrorCode.INVALID_REQUEST,
      `${method}: onUnsupported must be "error", "json_object" or "text", got ${JSON.stringify(onUnsupported)}`,
    );
  }
}

function withTotalTokens(result: CreateMessageResult): CreateMessageResult {
  const usage = result.usage;
  if (typeof usage !== "object" || usage === null || typeof usage.totalTokens === "number") return result;
  if (typeof usage.inputTokens !== "number" && typeof usage.outputTokens !== "number") return result;
  return { ...result, usage: { ...usage, totalTokens: totalTokens(result) } };
}
