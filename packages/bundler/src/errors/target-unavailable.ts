import type { KnownPlatform } from "../platform/platforms.js";
import type { RuntimeName } from "../runtime/runtime.js";
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
