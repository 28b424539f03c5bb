import { RpcError, SamplingErrorCode } from "@executa/core";
import { HostError } from "../../errors/host-error.js";
import type { SamplingReply, SamplingRequest, SamplingResponder } from "./request.js";

/** Where the relay sends completions. */
export interface RelayConfig {
  /** Base URL of an OpenAI-compatible API, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey?: string;
  /** The model to ask for; else the request's first model hint. */
  model?: string;
  /** Upper bound of one upstream call. Default 60 s (the call's own timeout may be shorter). */
  timeoutMs?: number;
}

const FINISH_REASONS = new Map([
  ["stop", "endTurn"],
  ["length", "maxTokens"],
]);

/**
 * Relays `sampling/createMessage` to an OpenAI-compatible `POST {baseUrl}/chat/completions`
 * and maps the answer back (finish_reason stop → endTurn, length → maxTokens; usage
 * prompt/completion tokens → inputTokens/outputTokens). Upstream failures answer -32003,
 * timeouts -32005.
 */
export class OpenAiRelayResponder implements SamplingResponder {
  readonly name = "openai-relay";

  constructor(private readonly config: RelayConfig) {
    try {
      new URL(config.baseUrl);
    } catch {
      throw new HostError(
        "INVALID_SAMPLING_CONFIG",
        `sampling relay: base URL ${JSON.stringify(config.baseUrl)} is not a URL`,
      );
    }
  }

  async respond(
    request: SamplingRequest,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<SamplingReply> {
    const model = this.config.model ?? request.modelHints[0];
    if (!model) {
      throw new RpcError(
        SamplingErrorCode.PROVIDER_ERROR,
        "sampling relay: no model configured (set EXECUTA_SAMPLING_MODEL) and the request has no model hint",
      );
    }
    const timeoutMs = Math.max(1, Math.min(this.config.timeoutMs ?? 60_000, options.timeoutMs || Infinity));
    const timeout = AbortSignal.timeout(timeoutMs);
    const url = `${this.config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}),
        },
        body: JSON.stringify(toChatBody(request, model)),
        signal: AbortSignal.any([options.signal, timeout]),
      });
    } catch (error) {
      if (timeout.aborted) {
        throw new RpcError(
          SamplingErrorCode.TIMEOUT,
          `sampling relay: no answer from ${url} within ${timeoutMs} ms`,
        );
      }
      throw new RpcError(
        SamplingErrorCode.PROVIDER_ERROR,
        `sampling relay: ${url}: ${(error as Error).message}`,
      );
    }
    const body = await response.text();
    if (!response.ok) {
      throw new RpcError(
        SamplingErrorCode.PROVIDER_ERROR,
        `sampling relay: ${url} answered HTTP ${response.status}`,
        {
          status: response.status,
          body: body.slice(0, 1000),
        },
      );
    }
    return fromChatResponse(body, model, url);
  }
}

function toChatBody(request: SamplingRequest, model: string): Record<string, unknown> {
  const messages = [
    ...(request.systemPrompt ? [{ role: "system", content: request.systemPrompt }] : []),
    ...request.messages.map((m) => ({ role: m.role, content: m.text })),
  ];
  const body: Record<string, unknown> = { model, messages, max_tokens: request.maxTokens };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.stopSequences?.length) body.stop = request.stopSequences;
  if (request.responseFormat && request.responseFormat.type !== "text")
    body.response_format = request.responseFormat;
  return body;
}

function fromChatResponse(body: string, model: string, url: string): SamplingReply {
  const bad = (why: string): never => {
    throw new RpcError(SamplingErrorCode.PROVIDER_ERROR, `sampling relay: ${url}: ${why}`, {
      body: body.slice(0, 1000),
    });
  };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return bad("the answer is not JSON");
  }
  const answer = value as {
    model?: unknown;
    choices?: { message?: { content?: unknown }; finish_reason?: unknown }[];
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
  };
  const choice = Array.isArray(answer.choices) ? answer.choices[0] : undefined;
  const content = choice?.message?.content;
  if (typeof content !== "string") return bad("the answer has no choices[0].message.content");
  const finish = typeof choice?.finish_reason === "string" ? choice.finish_reason : "stop";
  const reply: SamplingReply = {
    text: content,
    model: typeof answer.model === "string" ? answer.model : model,
    stopReason: FINISH_REASONS.get(finish) ?? finish,
  };
  const input = answer.usage?.prompt_tokens;
  const output = answer.usage?.completion_tokens;
  if (typeof input === "number" && typeof output === "number")
    reply.usage = { inputTokens: input, outputTokens: output };
  return reply;
}
