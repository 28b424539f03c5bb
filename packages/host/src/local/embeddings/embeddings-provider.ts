import { EmbeddingsErrorCode, JsonRpcErrorCode, RpcError } from "@executa/core";
import type { ReverseCall, ReverseProvider } from "../../providers/provider.js";
import { invalidParams, paramsOf } from "../method-params.js";
import { estimateTokens } from "../sampling/request.js";
import { featureHashEmbedding } from "./feature-hash.js";

/** The reference host's default embedding alias. */
export const DEFAULT_EMBEDDING_MODEL = "anna-managed-v1";
/** Dimensions of the default alias. */
export const DEFAULT_EMBEDDING_DIMENSIONS = 1536;

/** The local embeddings host's caps. */
export interface EmbeddingsLimits {
  /** Inputs per call. Default 256; beyond → -32504. */
  maxInputs?: number;
  /** Tokens of one input. Default 8191; beyond → -32506. */
  maxTokensPerInput?: number;
  /** Tokens of one call, all inputs. Default 300 000; beyond → -32506. */
  maxTokensPerRequest?: number;
  /** Tokens the session (the provider's life, the "daily pool") may embed. Default 1 000 000; beyond → -32502. */
  tokensQuota?: number;
}

/** Options of {@link EmbeddingsProvider}. */
export interface EmbeddingsProviderOptions extends EmbeddingsLimits {
  /** Accepted `model` aliases. Default `["anna-managed-v1"]`; the first is the default. */
  models?: readonly string[];
  /** Dimensions when the call asks for none. Default 1536. */
  dimensions?: number;
}

/**
 * `embeddings/create`: deterministic feature-hashing vectors (words and character
 * trigrams, L2-normalized) of the requested `dimensions`, for one string or a list,
 * answered as `{object: "list", model, data: [{object, index, embedding}], usage, _meta}`.
 */
export class EmbeddingsProvider implements ReverseProvider {
  private readonly limits: Required<EmbeddingsLimits>;
  private readonly models: readonly string[];
  private readonly dimensions: number;
  private used = 0;

  constructor(options: EmbeddingsProviderOptions = {}) {
    this.limits = {
      maxInputs: options.maxInputs ?? 256,
      maxTokensPerInput: options.maxTokensPerInput ?? 8191,
      maxTokensPerRequest: options.maxTokensPerRequest ?? 300_000,
      tokensQuota: options.tokensQuota ?? 1_000_000,
    };
    this.models = options.models ?? [DEFAULT_EMBEDDING_MODEL];
    this.dimensions = options.dimensions ?? DEFAULT_EMBEDDING_DIMENSIONS;
  }

  handle(call: ReverseCall): unknown {
    if (call.method !== "embeddings/create") {
      throw new RpcError(JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${call.method}`);
    }
    const started = performance.now();
    const params = paramsOf(call, "embeddings/create");
    const inputs = this.readInputs(call, params.input);
    const model = params.model ?? this.models[0]!;
    if (!this.models.includes(model)) {
      throw invalidParams(
        call,
        `model must be one of ${this.models.join(", ")}, got ${JSON.stringify(model)}`,
      );
    }
    const dimensions = readDimensions(call) ?? this.dimensions;
    const tokens = this.countTokens(inputs);
    return {
      object: "list",
      model,
      data: inputs.map((text, index) => ({
        object: "embedding",
        index,
        embedding: featureHashEmbedding(text, dimensions),
      })),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
      _meta: {
        alias: model,
        dimensions,
        backendModel: "feature-hash",
        provider: "local",
        latencyMs: Math.round(performance.now() - started),
        quotaConsumed: tokens,
      },
    };
  }

  private readInputs(call: ReverseCall, input: string | string[]): string[] {
    const inputs = typeof input === "string" ? [input] : input;
    if (inputs.length > this.limits.maxInputs) {
      throw invalidParams(
        call,
        `${inputs.length} inputs exceed the ${this.limits.maxInputs} inputs per call cap`,
        {
          inputs: inputs.length,
          max_inputs: this.limits.maxInputs,
        },
      );
    }
    const blank = inputs.findIndex((text) => text.trim() === "");
    if (blank >= 0) throw invalidParams(call, `input[${blank}] must be a non-empty string`);
    return inputs;
  }

  /** Counts the call's tokens against the caps and the session pool. */
  private countTokens(inputs: readonly string[]): number {
    let total = 0;
    for (const [index, text] of inputs.entries()) {
      const tokens = estimateTokens(text);
      if (tokens > this.limits.maxTokensPerInput) {
        throw new RpcError(
          EmbeddingsErrorCode.MAX_TOKENS,
          `embeddings/create: input[${index}] has about ${tokens} tokens (cap ${this.limits.maxTokensPerInput})`,
          { index, tokens, max_tokens: this.limits.maxTokensPerInput },
        );
      }
      total += tokens;
    }
    if (total > this.limits.maxTokensPerRequest) {
      throw new RpcError(
        EmbeddingsErrorCode.MAX_TOKENS,
        `embeddings/create: about ${total} tokens in one call (cap ${this.limits.maxTokensPerRequest})`,
        { tokens: total, max_tokens: this.limits.maxTokensPerRequest },
      );
    }
    if (this.used + total > this.limits.tokensQuota) {
      throw new RpcError(
        EmbeddingsErrorCode.QUOTA_EXCEEDED,
        `embeddings/create: embedding token pool exhausted (${this.used} of ${this.limits.tokensQuota} used)`,
        { tokens_used: this.used, tokens_quota: this.limits.tokensQuota },
      );
    }
    this.used += total;
    return total;
  }
}

/** `dimensions`, a parameter of this host beyond the spec: a whole number from 1 to 4096. */
function readDimensions(call: ReverseCall): number | undefined {
  const { dimensions } = call.params;
  if (dimensions === undefined || dimensions === null) return undefined;
  if (
    typeof dimensions !== "number" ||
    !Number.isInteger(dimensions) ||
    dimensions < 1 ||
    dimensions > 4096
  ) {
    throw invalidParams(call, "dimensions must be an integer from 1 to 4096");
  }
  return dimensions;
}
