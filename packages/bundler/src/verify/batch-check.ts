import type { Manifest } from "@executa/core";
import { runBatchConformance } from "@executa/host";
import { ExecutaBuildError } from "../errors/build-error.js";
import type { ArtifactCommand } from "./artifact-process.js";
import { diffManifests, formatDifferences } from "./diff-manifests.js";

/** Options of {@link checkInBatch}. */
export interface BatchCheckOptions {
  /** The build step named in a failure. */
  step: string;
  /** What the binary is, for messages: `dist/weather-windows-x86_64.exe (under wine64)`. */
  label: string;
  /** How long the first conversation (handshake and `describe` included) may take. */
  timeoutMs: number;
}

/** What a batch run of a binary showed. */
export interface BatchCheck {
  /** From spawn to exit of the conversation that held `describe`: an upper bound of its time. */
  describeMs: number;
  /** The conformance checks passed, one line each (a WARN with its reason). */
  checks: string[];
  /** The checks that need a live pipe, which a batch run could not do. */
  notRun: string[];
}

/**
 * Runs a binary through `@executa/host`'s batch conformance (scripted conversations on
 * files, for a runner without pipes such as Wine) and checks that it describes the
 * manifest from source. Throws an {@link ExecutaBuildError} at `options.step`:
 * `MANIFEST_MISMATCH` naming every difference, or `CONFORMANCE` listing every failed check.
 */
export async function checkInBatch(
  command: ArtifactCommand,
  expected: Manifest,
  options: BatchCheckOptions,
): Promise<BatchCheck> {
  const report = await runBatchConformance(command.command, command.args ?? [], {
    cwd: command.cwd,
    env: command.env,
    describeTimeoutMs: options.timeoutMs,
  });
  const failed = report.checks.filter((check) => check.status === "FAIL");
  if (failed.length > 0) {
    throw new ExecutaBuildError(
      "CONFORMANCE",
      `${options.label}: ${failed.length} check${failed.length === 1 ? "" : "s"} of a batch run failed:\n  ` +
        failed.map((check) => `${check.title}: ${check.reason}`).join("\n  "),
      { step: options.step },
    );
  }
  const differences = diffManifests(expected, report.manifest);
  if (differences.length > 0) {
    throw new ExecutaBuildError(
      "MANIFEST_MISMATCH",
      `${options.label} describes a different manifest than the source:\n${formatDifferences(differences)}`,
      { step: options.step },
    );
  }
  return {
    describeMs: report.conversationMs,
    checks: report.checks.map((check) =>
      check.status === "WARN" ? `${check.title} (WARN: ${check.reason})` : check.title,
    ),
    notRun: report.notRun.map((check) => check.title),
  };
}
