/**
 * `@executa/bundler` — a tsup preset that turns an Executa plugin into one CommonJS file,
 * a Node single executable, a manifest and an archive, each verified at build time; and
 * the same steps as plain functions for `executa build`.
 * @packageDocumentation
 */

export { type ArchiveOptions, type ArchiveResult, createArchive, sha256OfFile } from "./emit/archive.js";
export {
  archiveEntrypoint,
  binaryFileName,
  distributionManifest,
  runtimeBinary,
} from "./emit/binary-manifest.js";
export {
  REGISTRATION_FILE,
  type Registration,
  registrationOf,
  writeRegistration,
} from "./emit/registration.js";
export { renameBundle } from "./emit/rename-bundle.js";
export { ExecutaBuildError } from "./errors/build-error.js";
export { MISSING_SWC_MESSAGE, MissingSwcError } from "./errors/missing-swc-error.js";
export { type BuildPluginOptions, buildPlugin } from "./pipeline/build-plugin.js";
export {
  type BuildResult,
  type FinishBuildOptions,
  finishBuild,
  MANIFEST_FILE,
  type VerifiedFile,
} from "./pipeline/finish-build.js";
export {
  type BinaryPlatform,
  hostPlatform,
  type PlatformKey,
  platformKey,
  platformOfBinary,
} from "./platform/platform-key.js";
export { type ExecutaOptions, executa } from "./preset/executa.js";
export { formatBytes, formatMs } from "./report/format.js";
export { createReporter, isQuiet, type Reporter, type ReporterOptions } from "./report/reporter.js";
export {
  buildSea,
  SEA_MACHO_SEGMENT,
  SEA_RESOURCE_NAME,
  SEA_SENTINEL_FUSE,
  type SeaOptions,
  type SeaResult,
} from "./sea/build-sea.js";
export { nodeVersionOfBinary } from "./sea/node-version.js";
export { describeSource, SOURCE_DESCRIBE_TIMEOUT_MS, sourceCommand } from "./source/describe-source.js";
export { registerModuleUrl } from "./source/register-location.js";
export { type EsbuildPlugin, swcDecoratorPlugin } from "./swc/esbuild-swc-plugin.js";
export { loadSwc, resolveSwcPath, type SwcModule } from "./swc/resolve-swc.js";
export { decoratorTransformOptions, type SwcModuleKind } from "./swc/transform-options.js";
export { ArtifactCheckError, type ArtifactFailure } from "./verify/artifact-check-error.js";
export { type ArtifactCommand, type ArtifactExit, ArtifactSession } from "./verify/artifact-session.js";
export { type DescribeOptions, type DescribeReport, describeArtifact } from "./verify/describe-artifact.js";
export { diffManifests, formatDifferences, type ManifestDifference } from "./verify/diff-manifests.js";
export { type VerifyOptions, verifyArtifact } from "./verify/verify-artifact.js";
