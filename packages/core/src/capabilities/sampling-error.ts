import { errorBrand } from "../errors/brand.js";
import { SamplingErrorCode } from "../wire/error-codes.js";
import { CapabilityError } from "./capability-error.js";
import type { Family } from "./family.js";

/** A `sampling/*` call failed. Codes: {@link SamplingErrorCode}. */
export class SamplingError extends CapabilityError {
  /** The process-wide identity of this class (see `RpcError`). */
  static override readonly brand: symbol = errorBrand("SamplingError");

  static readonly codes = SamplingErrorCode;
  override readonly name: string = "SamplingError";
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

/** Why a structured answer was refused. */
export type StructuredOutputFailure = "not_json" | "schema_mismatch";

/** What {@link StructuredOutputError} carries in `data`. */
export interface StructuredOutputErrorData {
  reason: "invalid_structured_output";
  failure: StructuredOutputFailure;
  /** Each problem found, `path` like `keywords.2` (empty for `not_json`). */
  issues: { path: string; message: string }[];
  /** The host applied `onUnsupported` instead of the requested schema. */
  downgraded: boolean;
  /** The host's own verdict (`_meta.responseFormat.structuredValid`), when it sent one. */
  structuredValid?: boolean;
  /** How many completions were asked for (1 + retries used). */
  attempts: number;
  /** The start of the model's last answer. */
  text: string;
}

/**
 * `sampling.createObject` got an answer that is not JSON, or JSON that does not validate
 * into the requested class, after its retries. Code -32003 (PROVIDER_ERROR: the model
 * answered outside the contract); `data` says whether the host downgraded the request.
 */
export class StructuredOutputError extends SamplingError {
  override readonly name: string = "StructuredOutputError";
  declare readonly data: StructuredOutputErrorData;
  constructor(message: string, data: StructuredOutputErrorData) {
    super(SamplingErrorCode.PROVIDER_ERROR, message, data);
  }
  /** The validation messages, one line each (`path: message`). */
  get issues(): StructuredOutputErrorData["issues"] {
    return this.data.issues;
  }
  /** Whether the host downgraded the request (so the model was never bound to the schema). */
  get downgraded(): boolean {
    return this.data.downgraded;
  }
}
