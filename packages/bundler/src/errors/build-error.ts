import type { SurfaceChange } from "../compat/surface-change.js";
import type { KnownPlatform } from "../platform/platforms.js";
import type { RuntimeName } from "../runtime/runtimes.js";

/** A field of the project's `executa.json` that contradicts what the build made. */
export interface ExecutaJsonConflict {
  /** Dotted path of the field, e.g. `distribution.profiles.binary.capabilities`. */
  path: string;
  authored: unknown;
  built: unknown;
}

/**
 * What went wrong, one code per case: match on it, never on the message. Where in the
 * build it happened is {@link ExecutaBuildError.step}.
 *
 * - `INVALID_OPTIONS`: an option or artifact name the build cannot use.
 * - `MISSING_SWC`: `@swc/core` cannot be resolved, so decorator metadata would be lost.
 * - `BUNDLE_FAILED`: esbuild / tsup could not bundle the entry.
 * - `TARGET_UNAVAILABLE`: a runtime cannot build a target here (no Node binary, no Bun, a native addon).
 * - `DOWNLOAD_INTEGRITY`: a downloaded runtime is not what its source said it would be.
 * - `BINARY_FAILED`: a runtime failed to build or sign a binary.
 * - `EXECUTA_JSON_CONFLICT`: the project's `executa.json` contradicts what the build measured.
 * - `EXECUTA_JSON_INVALID`: the project's `executa.json` or the release URL cannot be used.
 * - `ARTIFACT_SPAWN` … `CONFORMANCE`: an artifact (the source, the bundle, a binary) broke a
 *   rule of the protocol when it ran: it could not start, exited early, did not answer in
 *   time, answered with an error, printed a stray stdout line, described no manifest, did
 *   not exit on stdin EOF, exited non-zero, or failed a lifecycle check.
 * - `SLOW_DESCRIBE`: an artifact answered `describe` later than the spec allows.
 * - `MANIFEST_MISMATCH`: an artifact describes another manifest than the source.
 * - `STRUCTURE_MISMATCH`: a binary that cannot run here differs from the one that ran.
 * - `BREAKING_CHANGE`: the tool surface breaks callers of the released one without the version bump it needs.
 * - `VERSION_MISMATCH`: `package.json` and the plugin's manifest name two versions.
 * - `UNLICENSED_PACKAGE`: the bundle embeds a package whose package.json declares no licence.
 * - `MCPB_NO_FALLBACK`: `.mcpb` bundles were asked for, `host_capabilities` needs storage or
 *   files, and the plugin serves MCP without a fallback for them (`mcpLocalFallback()`).
 */
export type BuildErrorCode =
  | "INVALID_OPTIONS"
  | "MISSING_SWC"
  | "BUNDLE_FAILED"
  | "TARGET_UNAVAILABLE"
  | "DOWNLOAD_INTEGRITY"
  | "BINARY_FAILED"
  | "EXECUTA_JSON_CONFLICT"
  | "EXECUTA_JSON_INVALID"
  | ArtifactCheckCode
  | "SLOW_DESCRIBE"
  | "MANIFEST_MISMATCH"
  | "STRUCTURE_MISMATCH"
  | "BREAKING_CHANGE"
  | "VERSION_MISMATCH"
  | "UNLICENSED_PACKAGE"
  | "MCPB_NO_FALLBACK";

/** The codes of an artifact that misbehaved when run (see {@link BuildErrorCode}). */
export const ARTIFACT_CHECK_CODES = [
  "ARTIFACT_SPAWN",
  "ARTIFACT_EXITED",
  "ARTIFACT_TIMEOUT",
  "ARTIFACT_RPC_ERROR",
  "STRAY_STDOUT",
  "INVALID_MANIFEST",
  "NO_EXIT_ON_EOF",
  "BAD_EXIT",
  "CONFORMANCE",
] as const;

/** A code of an artifact that misbehaved when run (the `ARTIFACT_CHECK_CODES` list). */
export type ArtifactCheckCode = (typeof ARTIFACT_CHECK_CODES)[number];

/** The evidence some codes carry, besides the message. */
export interface BuildErrorDetails {
  /** What the artifact wrote to stderr (artifact checks). */
  stderr?: string;
  /** The target and its runtime (`TARGET_UNAVAILABLE`). */
  platform?: KnownPlatform;
  runtime?: RuntimeName;
  /** The file in question (`EXECUTA_JSON_CONFLICT`: the project file as named in messages). */
  file?: string;
  /** Every contradicted field (`EXECUTA_JSON_CONFLICT`). */
  conflicts?: ExecutaJsonConflict[];
  /** Every breaking change (`BREAKING_CHANGE`). */
  changes?: SurfaceChange[];
}

/** Options of an {@link ExecutaBuildError}. */
export interface BuildErrorOptions extends BuildErrorDetails {
  /** The build step that failed, e.g. `verify bundle`; absent for a failure found outside a build. */
  step?: string;
  cause?: unknown;
}

/**
 * The one error of `@executa/bundler`: a build that must not ship (verification failed,
 * a tool is missing, an input is wrong) or an artifact that broke a rule when checked.
 * `code` says which case; the message says what failed and how to fix it, with the
 * evidence (stderr of the artifact, a manifest diff) folded in; `details` carries
 * that evidence as data.
 *
 * The stack is the message alone: tsup prints `error.stack` of a failed `onSuccess`,
 * and a user reading a build failure needs the reason, not bundler internals.
 */
export class ExecutaBuildError extends Error {
  override readonly name = "ExecutaBuildError";
  /** The build step that failed, e.g. `verify bundle`. */
  readonly step: string | undefined;
  readonly details: BuildErrorDetails;

  constructor(
    readonly code: BuildErrorCode,
    message: string,
    options: BuildErrorOptions = {},
  ) {
    const { step, cause, ...details } = options;
    super(step === undefined ? message : `executa build failed at "${step}": ${message}`, { cause });
    this.step = step;
    this.details = details;
    this.stack = this.message;
  }

  /** What the artifact wrote to stderr, for an artifact check; "" otherwise. */
  get stderr(): string {
    return this.details.stderr ?? "";
  }
}

/** True for an {@link ExecutaBuildError} with one of `codes`. */
export function isBuildError<C extends BuildErrorCode>(
  error: unknown,
  ...codes: C[]
): error is ExecutaBuildError & { code: C } {
  return error instanceof ExecutaBuildError && (codes.length === 0 || codes.includes(error.code as C));
}
