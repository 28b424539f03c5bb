import { JsonRpcErrorCode, RESPONSE_FORMAT_TYPES, RpcError, SamplingErrorCode } from "@executa/core";
import type { ReverseCall, ReverseProvider } from "../../providers/provider.js";
import { InvokeTally } from "../invoke-tally.js";
import { estimateTokens, readSamplingRequest, type SamplingResponder } from "./request.js";
import { planResponseFormat, responseFormatReport } from "./structured-output.js";

/** The host's per-call and per-invoke sampling caps (defaults from the reference host). */
export interface SamplingLimits {
  /** Largest `maxTokens` of one call. Default 8192. */
  maxTokensPerCall?: number;
  /** Calls one invoke may make. Default 8; beyond → -32006. */
  maxCallsPerInvoke?: number;
  /** Tokens one invoke may use in total. Default 32 000; beyond → -32007. */
  maxTokensPerInvoke?: number;
}

interface InvokeUsage {
  calls: number;
  tokens: number;
}

/**
 * `sampling/createMessage`: validates the request (-32004), enforces the caps, asks the
 * responder, and answers in the wire shape: `role`, `content` (`type`, `text`), `model`,
 * `stopReason`, `usage`, `_meta`. Structured output is handled as a real host does: the
 * schema is checked against the host's limits (-32004), a format the model does not
 * support follows `onUnsupported` (-32010 by default), and `_meta.responseFormat` reports
 * `downgraded` and `structuredValid`.
 */
export class SamplingProvider implements ReverseProvider {
  private readonly usage = new InvokeTally<InvokeUsage>(() => ({ calls: 0, tokens: 0 }));
  private readonly limits: Required<SamplingLimits>;

  constructor(
    private readonly responder: SamplingResponder,
    limits: SamplingLimits = {},
  ) {
    this.limits = {
      maxTokensPerCall: limits.maxTokensPerCall ?? 8192,
      maxCallsPerInvoke: limits.maxCallsPerInvoke ?? 8,
      maxTokensPerInvoke: limits.maxTokensPerInvoke ?? 32_000,
    };
  }

  async handle(call: ReverseCall): Promise<unknown> {
    if (call.method !== "sampling/createMessage") {
      throw new RpcError(JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${call.method}`);
    }
    const request = readSamplingRequest(call.params);
    if (request.maxTokens > this.limits.maxTokensPerCall) {
      throw new RpcError(
        SamplingErrorCode.MAX_TOKENS_EXCEEDED,
        `sampling/createMessage: maxTokens ${request.maxTokens} exceeds the ${this.limits.maxTokensPerCall} per-call cap`,
      );
    }
    const usage = this.usage.of(call.context);
    if (usage.calls >= this.limits.maxCallsPerInvoke) {
      throw new RpcError(
        SamplingErrorCode.MAX_CALLS_EXCEEDED,
        `sampling/createMessage: this invoke already made ${usage.calls} sampling calls (cap ${this.limits.maxCallsPerInvoke})`,
      );
    }
    if (usage.tokens >= this.limits.maxTokensPerInvoke) {
      throw new RpcError(
        SamplingErrorCode.MAX_TOKENS_EXCEEDED,
        `sampling/createMessage: this invoke already used ${usage.tokens} tokens (cap ${this.limits.maxTokensPerInvoke})`,
      );
    }
    const plan = planResponseFormat(request, this.responder.responseFormats ?? RESPONSE_FORMAT_TYPES);
    usage.calls += 1;
    const started = performance.now();
    const asked = plan ? { ...request, responseFormat: plan.applied } : request;
    const reply = await this.responder.respond(asked, {
      signal: call.context.signal,
      timeoutMs: call.context.timeoutMs,
    });
    const tokens = reply.usage ?? {
      inputTokens: estimateTokens(
        [request.systemPrompt ?? "", ...request.messages.map((m) => m.text)].join("\n"),
      ),
      outputTokens: estimateTokens(reply.text),
    };
    usage.tokens += tokens.inputTokens + tokens.outputTokens;
    return {
      role: "assistant",
      content: { type: "text", text: reply.text },
      model: reply.model,
      stopReason: reply.stopReason,
      usage: { ...tokens, totalTokens: tokens.inputTokens + tokens.outputTokens },
      _meta: {
        provider: this.responder.name,
        latencyMs: Math.round(performance.now() - started),
        ...(plan ? { responseFormat: responseFormatReport(plan, reply.text) } : {}),
      },
    };
  }
}
