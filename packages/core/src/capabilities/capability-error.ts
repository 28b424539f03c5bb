import { errorBrand } from "../errors/brand.js";
import { RpcError } from "../errors/rpc-error.js";
import type { ReverseFamilyName } from "../wire/capability-families.js";
import { JsonRpcErrorCode, RoutingErrorCode } from "../wire/error-codes.js";

/** The codes every capability family has, under the same names. */
export interface FamilyCodes {
  readonly NOT_GRANTED: number;
  readonly INVALID_REQUEST: number;
  readonly TIMEOUT: number;
  readonly QUOTA_EXCEEDED: number;
  /** Absent for families whose spec has none (storage, files, agent). */
  readonly NOT_NEGOTIATED?: number;
}

/**
 * Names of the error families, as they appear in error messages and `family`: the
 * table's families, but `files/*` calls fail with `StorageError` (the two share codes).
 */
export type CapabilityFamilyName = Exclude<ReverseFamilyName, "files">;

/**
 * A reverse call to the host failed: the host answered with an error frame, or the call
 * failed locally (not negotiated, not declared, bad arguments, timed out). Every
 * `ctx.host.*` method rejects with its family's subclass, except when its signal aborts
 * (then it rejects with the signal's reason, as `fetch` does).
 *
 * It is an {@link RpcError}: a tool that lets it escape answers the invoke with the same
 * code, message and data, which is what the reference plugins do.
 */
export abstract class CapabilityError extends RpcError {
  /** The process-wide identity of this class (see `RpcError`). */
  static override readonly brand: symbol = errorBrand("CapabilityError");

  /** Which family of host methods raised it. */
  abstract readonly family: CapabilityFamilyName;

  protected constructor(
    private readonly codes: FamilyCodes,
    code: number,
    message: string,
    data?: unknown,
    options?: { cause?: unknown },
  ) {
    super(code, message, data);
    if (options?.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }

  /** The capability is not granted (not declared in `host_capabilities`, or refused by the host). */
  isNotGranted(): boolean {
    return this.code === this.codes.NOT_GRANTED;
  }

  /**
   * The host did not negotiate protocol 2.0. Families without a NOT_NEGOTIATED code report
   * this as NOT_GRANTED with `data.reason === "not_negotiated"`.
   */
  isNotNegotiated(): boolean {
    if (this.codes.NOT_NEGOTIATED !== undefined && this.code === this.codes.NOT_NEGOTIATED) return true;
    return this.code === this.codes.NOT_GRANTED && dataField(this.data, "reason") === "not_negotiated";
  }

  /** No answer came in time (raised locally), or the host reported its own timeout. */
  isTimeout(): boolean {
    return this.code === this.codes.TIMEOUT;
  }

  isQuotaExceeded(): boolean {
    return this.code === this.codes.QUOTA_EXCEEDED;
  }

  /**
   * The host answered, but not in the shape the protocol gives
   * (`data.reason === "malformed_reply"`, `data.path` naming the bad field); its code is the family's
   * upstream/provider error.
   */
  isMalformedReply(): boolean {
    return dataField(this.data, "reason") === "malformed_reply";
  }

  /** The request was rejected as malformed, by the host or before sending. */
  isInvalidRequest(): boolean {
    return this.code === this.codes.INVALID_REQUEST || this.code === JsonRpcErrorCode.INVALID_PARAMS;
  }

  /**
   * The host could not route the call to an invoke (-32602 with `data.errorCode`):
   * `UNKNOWN_INVOKE_CONTEXT` (the invoke already finished) or `MISSING_INVOKE_CONTEXT`.
   */
  get invokeContextError(): keyof typeof RoutingErrorCode | undefined {
    if (this.code !== JsonRpcErrorCode.INVALID_PARAMS) return undefined;
    const value = dataField(this.data, "errorCode");
    return value === RoutingErrorCode.UNKNOWN_INVOKE_CONTEXT ||
      value === RoutingErrorCode.MISSING_INVOKE_CONTEXT
      ? value
      : undefined;
  }
}

function dataField(data: unknown, key: string): unknown {
  return typeof data === "object" && data !== null ? (data as Record<string, unknown>)[key] : undefined;
}
