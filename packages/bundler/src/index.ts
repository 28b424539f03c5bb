/**
 * `@executa/bundler` — a tsup preset that turns an Executa plugin into one CommonJS file,
 * a standalone binary per platform the agent runs on (Node single executable or Bun),
 * manifests and archives, each verified at build time; and the same build as one
 * function for `executa build`.
 * @packageDocumentation
 */

// Tool-surface compatibility between a released manifest and a new one.
export {
  type ChangeKind,
  type CompatReport,
  checkCompatibility,
  comparable,
  compareSurfaces,
  compatMarkdown,
  type LoadedSurface,
  readSurface,
  type SurfaceChange,
  surfaceFromJson,
  surfaceOf,
  type VersionVerdict,
  versionVerdict,
} from "./compat/index.js";
// The build: the tsup preset, and the same build without a tsup.config.ts.
export type { ArchiveResult } from "./emit/archive.js";
export type {
  AuthoredBinaryUrl,
  BinaryProfile,
  BinaryUrl,
  Distribution,
  DistributionProfiles,
  ExecutaJson,
  LocalProfile,
} from "./emit/executa-json.js";
export type { McpbResult } from "./emit/mcpb.js";
export {
  MCPB_ICON,
  MCPB_MANIFEST_VERSION,
  MCPB_META_KEY,
  type McpbExecutaMeta,
  type McpbManifest,
  type McpbMcpConfig,
  type McpbUserConfigOption,
} from "./emit/mcpb-manifest.js";
// Its one error type.
export {
  ARTIFACT_CHECK_CODES,
  type ArtifactCheckCode,
  type BuildErrorCode,
  type BuildErrorDetails,
  type BuildErrorOptions,
  ExecutaBuildError,
  type ExecutaJsonConflict,
  isBuildError,
} from "./errors/build-error.js";
export { type BuildExecutablesOptions, buildExecutables } from "./pipeline/build-executables.js";
export type { TargetBuild } from "./pipeline/build-targets.js";
export type {
  BuildExecutablesResult,
  PlatformArchiveResult,
  PlatformMcpbResult,
  TargetsOption,
  VerifiedFile,
} from "./pipeline/finish-build.js";
export { SURFACE_FILE } from "./pipeline/surface-check.js";
// Platforms and runtimes, as the options name them.
export { type BinaryPlatform, type PlatformKey, platformOfBinary } from "./platform/platform-key.js";
export { isKnownPlatform, KNOWN_PLATFORMS, type KnownPlatform } from "./platform/platforms.js";
export { type ExecutaOptions, executa } from "./preset/executa.js";
export { formatBytes } from "./report/format.js";
export type { RuntimeOptions } from "./runtime/runtime.js";
export { RUNTIME_NAMES, type RuntimeChoice, type RuntimeName } from "./runtime/runtimes.js";
// Running and checking a plugin as the build does.
export { sourceCommand } from "./source/describe-source.js";
export type { ArtifactCommand } from "./verify/artifact-process.js";
export { type DescribeOptions, type DescribeReport, describeArtifact } from "./verify/describe-artifact.js";
export { type MachOSignatureReport, verifyMachOSignature } from "./verify/macho-signature.js";
export {
  type BinaryRunner,
  type Runner,
  type RunnerLookup,
  type RunnerOptions,
  runnerForBinary,
} from "./verify/run-here.js";
