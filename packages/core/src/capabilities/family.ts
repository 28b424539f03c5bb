import type { CapabilityError, CapabilityFamilyName, FamilyCodes } from "./capability-error.js";

/** What the shared call path needs to know about one capability family. */
export interface Family<E extends CapabilityError = CapabilityError> {
  readonly name: CapabilityFamilyName;
  readonly codes: FamilyCodes;
  /** The code of a reply the host sent in the wrong shape (the family's upstream/provider error). */
  readonly malformedReplyCode: number;
  /** Makes this family's error. */
  error(code: number, message: string, data?: unknown, options?: { cause?: unknown }): E;
}

/** Options every `ctx.host.*` method takes. */
export interface CallOptions {
  /**
   * How long to wait for the host, in ms. The call never waits past the invoke's
   * deadline: the effective timeout is the smaller of this (or the method's default) and
   * the invoke's remaining time, and it is sent to the host as `_clientTimeoutS`.
   */
  timeoutMs?: number;
  /** Aborts this call (the invoke's own signal always aborts it too). */
  signal?: AbortSignal;
}
