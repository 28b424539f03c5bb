/** The build error codes a runtime's own failures map to. */
export type RuntimeFailureCode = "TARGET_UNAVAILABLE" | "DOWNLOAD_INTEGRITY";

/**
 * Why a runtime cannot build a target here, thrown by a runtime module: the build names
 * the runtime (its name in the runtime table) and reports it as an `ExecutaBuildError` of
 * the same code. A runtime module knows neither its own name nor the build's errors, so
 * adding one stays its module and its table line.
 */
export class RuntimeFailure extends Error {
  override readonly name = "RuntimeFailure";

  constructor(
    readonly code: RuntimeFailureCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
