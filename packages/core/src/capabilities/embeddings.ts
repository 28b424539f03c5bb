import { errorBrand } from "../errors/brand.js";
import { reverseMethodSpec } from "../wire/capability-families.js";
import { EmbeddingsErrorCode } from "../wire/error-codes.js";
import { CapabilityError } from "./capability-error.js";
import type { CallOptions, Family } from "./family.js";
import type { HostCaller } from "./host-call.js";

/** An `embeddings/*` call failed. Codes: {@link EmbeddingsErrorCode}. */
export class EmbeddingsError extends CapabilityError {
  /** The process-wide identity of this class (see `RpcError`). */
  static override readonly brand: symbol = errorBrand("EmbeddingsError");

  static readonly codes = EmbeddingsErrorCode;
  override readonly name = "EmbeddingsError";
  readonly family = "embeddings" as const;
  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(EmbeddingsErrorCode, code, message, data, options);
  }
  isUserDenied(): boolean {
    return this.code === EmbeddingsErrorCode.USER_DENIED;
  }
  /** The input is over the model's token limit. */
  isMaxTokensExceeded(): boolean {
    return this.code === EmbeddingsErrorCode.MAX_TOKENS;
  }
}

export const embeddingsFamily: Family<EmbeddingsError> = {
  name: "embeddings",
  codes: EmbeddingsErrorCode,
  malformedReplyCode: EmbeddingsErrorCode.PROVIDER_ERROR,
  error: (code, message, data, options) => new EmbeddingsError(code, message, data, options),
};

export interface EmbeddingsOptions extends CallOptions {
  /** A host model alias (e.g. "anna-managed-v1"); host default when omitted. */
  model?: string;
}

/** Result of `embeddings/create`: one vector per input, in input order (`index`). */
export interface EmbeddingsResult {
  object: "list" | (string & {});
  model?: string;
  data: { index: number; embedding: number[]; [key: string]: unknown }[];
  usage?: { prompt_tokens?: number; total_tokens?: number };
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

const CREATE = reverseMethodSpec("embeddings/create");

/** `ctx.host.embeddings`: text embeddings computed by the host (`llm.embed`). */
export class EmbeddingsClient {
  /** Built with the invoke's host caller by core (`ctx.host`); plugin code never constructs one. @internal */
  constructor(private readonly caller: HostCaller) {}

  /** Embeds one string or a list of strings (sent as given). */
  async create(input: string | string[], options: EmbeddingsOptions = {}): Promise<EmbeddingsResult> {
    this.caller.ensureAvailable(embeddingsFamily, CREATE);
    const { model, ...call } = options;
    const valid =
      typeof input === "string"
        ? input.trim() !== ""
        : Array.isArray(input) &&
          input.length > 0 &&
          input.every((item) => typeof item === "string" && item !== "");
    if (!valid) {
      throw new EmbeddingsError(
        EmbeddingsErrorCode.INVALID_REQUEST,
        "embeddings/create: input must be a non-empty string or a non-empty list of non-empty strings",
      );
    }
    const result = await this.caller.call(embeddingsFamily, CREATE, { input, model }, call);
    return {
      ...result,
      object: typeof result.object === "string" ? result.object : "list",
      data: Array.isArray(result.data) ? (result.data as EmbeddingsResult["data"]) : [],
    };
  }
}
