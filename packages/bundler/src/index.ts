/**
 * `@executa/bundler` — a tsup preset that turns an Executa plugin into one CommonJS file,
 * a standalone binary per platform the agent runs on (Node single executable or Bun),
 * manifests and archives, each verified at build time; and the same steps as plain
 * functions for `executa build`.
 * @packageDocumentation
 */

export {
  type ArchiveOptions,
  type ArchiveResult,
  archiveFileName,
  createArchive,
  sha256OfFile,
} from "./emit/archive.js";
export {
  type ArchiveLayout,
  archiveEntrypoint,
  binaryFileName,
  DATA_DIR,
  distributionManifest,
  LIB_DIR,
  runtimeBinary,
} from "./emit/binary-manifest.js";
export {
  EXECUTA_JSON,
  type ExecutaJson,
  ExecutaJsonConflictError,
  type ExecutaJsonInput,
  executaJson,
  type PlatformArchive,
  readAuthoredExecutaJson,
} from "./emit/executa-json.js";
export { renameBundle } from "./emit/rename-bundle.js";
export { ExecutaBuildError } from "./errors/build-error.js";
export { MISSING_SWC_MESSAGE, MissingSwcError } from "./errors/missing-swc-error.js";
export { removeMachOSignature, signMachOAdHoc } from "./macho/adhoc-sign.js";
export {
  copyNativeAddons,
  disableTsupNativeNodeModules,
  type NativeAddon,
  nativeAddonPlugin,
} from "./native/index.js";
export { type BuildPluginOptions, buildPlugin } from "./pipeline/build-plugin.js";
export type { TargetBuild } from "./pipeline/build-targets.js";
export {
  type BuildResult,
  type FinishBuildOptions,
  finishBuild,
  MANIFEST_FILE,
  type PlatformArchiveResult,
  type TargetsOption,
  type VerifiedFile,
} from "./pipeline/finish-build.js";
export {
  type BinaryPlatform,
  hostPlatform,
  type PlatformKey,
  platformKey,
  platformOfBinary,
} from "./platform/platform-key.js";
export {
  isKnownPlatform,
  KNOWN_PLATFORMS,
  type KnownPlatform,
  resolveTargets,
  type TargetPlatform,
  targetPlatform,
} from "./platform/platforms.js";
export { type ExecutaOptions, executa } from "./preset/executa.js";
export { formatBytes, formatMs } from "./report/format.js";
export { createReporter, isQuiet, type Reporter, type ReporterOptions } from "./report/reporter.js";
export { bunRuntime, readBunEntryPoint } from "./runtime/bun.js";
export { obtainNodeBinary } from "./runtime/node-binaries.js";
export { nodeSea, SEA_MACHO_SEGMENT, SEA_RESOURCE_NAME, SEA_SENTINEL_FUSE } from "./runtime/node-sea.js";
export { nodeVersionOfBinary } from "./runtime/node-version.js";
export {
  type PreparedTarget,
  type Runtime,
  type RuntimeBuild,
  type RuntimeBuildInput,
  type RuntimeName,
  type RuntimeOptions,
  TargetUnavailableError,
} from "./runtime/runtime.js";
export { DEFAULT_RUNTIMES, RUNTIMES, type RuntimeChoice, runtimeFor } from "./runtime/runtimes.js";
export { describeSource, SOURCE_DESCRIBE_TIMEOUT_MS, sourceCommand } from "./source/describe-source.js";
export { registerModuleUrl } from "./source/register-location.js";
export { type EsbuildPlugin, swcDecoratorPlugin } from "./swc/esbuild-swc-plugin.js";
export { loadSwc, resolveSwcPath, type SwcModule } from "./swc/resolve-swc.js";
export { decoratorTransformOptions, type SwcModuleKind } from "./swc/transform-options.js";
export { ArtifactCheckError, type ArtifactFailure } from "./verify/artifact-check-error.js";
export { type ArtifactCommand, type ArtifactExit, ArtifactSession } from "./verify/artifact-session.js";
export { type ConformanceOptions, checkConformance } from "./verify/conformance.js";
export { type DescribeOptions, type DescribeReport, describeArtifact } from "./verify/describe-artifact.js";
export { diffManifests, formatDifferences, type ManifestDifference } from "./verify/diff-manifests.js";
export { type MachOSignatureReport, verifyMachOSignature } from "./verify/macho-signature.js";
export { type Runner, runnerFor } from "./verify/run-here.js";
export { type VerifyOptions, verifyArtifact } from "./verify/verify-artifact.js";
