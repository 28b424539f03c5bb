import type { Manifest } from "@executa/core";
import { ARTIFACT_CHECK_CODES, ExecutaBuildError, isBuildError } from "../errors/build-error.js";
import type { ArtifactCommand } from "./artifact-process.js";
import { failedOnMissingTypes } from "./decorator-failure.js";
import { type DescribeOptions, type DescribeReport, describeArtifact } from "./describe-artifact.js";
import { diffManifests, formatDifferences } from "./diff-manifests.js";

/** Options of {@link verifyArtifact}. */
export interface VerifyOptions extends DescribeOptions {
  /** The build step named in a failure, e.g. `verify bundle`. */
  step: string;
  /** What the artifact is, for messages: `dist/weather.cjs`. */
  label: string;
}

const METADATA_HINT =
  "Decorator metadata is missing from this artifact: the bundle was not compiled by SWC with " +
  "decoratorMetadata (esbuild alone drops design:paramtypes). Keep @swc/core installed and build " +
  "with the executa() preset.";

/**
 * Asks an artifact for its manifest and checks it against the manifest from source.
 * Throws an {@link ExecutaBuildError} at `options.step` naming the artifact, the reason,
 * the artifact's stderr and, for a manifest mismatch (`MANIFEST_MISMATCH`), every
 * difference.
 */
export async function verifyArtifact(
  command: ArtifactCommand,
  expected: Manifest,
  options: VerifyOptions,
): Promise<DescribeReport> {
  let report: DescribeReport;
  try {
    report = await describeArtifact(command, options);
  } catch (error) {
    throw artifactBuildError(options.step, options.label, error);
  }
  const limit = options.timeoutMs ?? 5_000;
  if (report.describeMs > limit) {
    throw new ExecutaBuildError(
      "SLOW_DESCRIBE",
      `${options.label} answered describe ${report.describeMs} ms after it was started, over the ${limit} ms the spec allows`,
      { step: options.step },
    );
  }
  const differences = diffManifests(expected, report.manifest);
  if (differences.length > 0) {
    const collapsed = differences.some(
      (d) => d.path.endsWith(".type") && d.actual === "object" && d.expected !== "object",
    );
    throw new ExecutaBuildError(
      "MANIFEST_MISMATCH",
      `${options.label} describes a different manifest than the source:\n${formatDifferences(differences)}` +
        (collapsed ? `\n${METADATA_HINT}` : ""),
      { step: options.step },
    );
  }
  return report;
}

/**
 * An artifact check's failure as the build's: same code, with the step, the artifact,
 * the reason and the artifact's last stderr lines. Other errors are returned unchanged.
 */
export function artifactBuildError(step: string, label: string, error: unknown): unknown {
  if (!isBuildError(error, ...ARTIFACT_CHECK_CODES) || error.step !== undefined) return error;
  return new ExecutaBuildError(error.code, `${label} ${error.message}${evidence(error.stderr)}`, {
    step,
    cause: error,
    stderr: error.stderr,
  });
}

function evidence(stderr: string): string {
  const lines = stderr.trimEnd().split("\n").filter(Boolean).slice(-30);
  if (lines.length === 0) return "";
  const metadata = failedOnMissingTypes(stderr);
  return `\n  stderr:\n${lines.map((line) => `    ${line}`).join("\n")}${metadata ? `\n${METADATA_HINT}` : ""}`;
}
