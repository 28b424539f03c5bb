import type { KnownPlatform } from "../platform/platforms.js";
import { RuntimeFailure } from "../runtime/runtime-failure.js";
import type { RuntimeName } from "../runtime/runtimes.js";
import { ExecutaBuildError } from "./build-error.js";

/**
 * A target a runtime cannot build here: an `ExecutaBuildError` with code
 * `TARGET_UNAVAILABLE`; the message names what was tried and the author's options.
 */
export function targetUnavailable(
  platform: KnownPlatform,
  runtime: RuntimeName,
  message: string,
  options?: { cause?: unknown },
): ExecutaBuildError {
  return new ExecutaBuildError("TARGET_UNAVAILABLE", message, { ...options, platform, runtime });
}

/**
 * What a runtime threw while building for `platform`, as the build reports it: a
 * `RuntimeFailure` becomes the `ExecutaBuildError` of its code, naming the runtime; any
 * other error is returned as it is.
 */
export function asBuildFailure(error: unknown, platform: KnownPlatform, runtime: RuntimeName): unknown {
  if (!(error instanceof RuntimeFailure)) return error;
  return new ExecutaBuildError(error.code, error.message, {
    platform,
    runtime,
    ...(error.cause !== undefined && { cause: error.cause }),
  });
}
