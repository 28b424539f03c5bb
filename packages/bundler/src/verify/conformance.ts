import { MAX_FRAME_BYTES } from "@executa/core";
import { type CheckResult, runConformance } from "@executa/host";
import { ExecutaBuildError } from "../errors/build-error.js";
import type { ArtifactCommand } from "./artifact-process.js";

/** Options of {@link checkConformance}. */
export interface ConformanceOptions {
  /** Longest wait for one answer. */
  timeoutMs: number;
  /** How long the process may take to exit after EOF or SIGTERM. Default: the spec's 5 s. */
  exitGraceMs?: number;
  /** The frame size limit to exceed. Default: the spec's 16 MiB. */
  maxFrameBytes?: number;
}

/** How far past the limit the oversized line goes. */
const OVERSIZE_BYTES = 1024 * 1024;

/**
 * Runs `executa check`'s conformance checks (`@executa/host`'s `runConformance`, the one
 * implementation of the spec's rules) on a built artifact over real pipes. A FAIL fails
 * the build; a WARN is kept in the returned lines. Resolves with one line per check that
 * ran; rejects with an `ExecutaBuildError` (`CONFORMANCE`) listing every failed check.
 */
export async function checkConformance(
  command: ArtifactCommand,
  options: ConformanceOptions,
): Promise<string[]> {
  const { timeoutMs } = options;
  const report = await runConformance(command.command, command.args ?? [], {
    cwd: command.cwd,
    env: command.env,
    describeTimeoutMs: timeoutMs,
    healthTimeoutMs: timeoutMs,
    replyTimeoutMs: timeoutMs,
    exitTimeoutMs: options.exitGraceMs,
    longLineBytes: (options.maxFrameBytes ?? MAX_FRAME_BYTES) + OVERSIZE_BYTES,
  });
  const failed = report.checks.filter((check) => check.status === "FAIL");
  if (failed.length > 0) {
    const lines = failed.map((check) => `${check.title}: ${check.reason}`);
    throw new ExecutaBuildError(
      "CONFORMANCE",
      `${failed.length} conformance check${failed.length === 1 ? "" : "s"} failed (run \`executa check\` on the artifact for the full report):\n  ${lines.join("\n  ")}`,
    );
  }
  return report.checks.map(describeCheck);
}

function describeCheck(check: CheckResult): string {
  return check.status === "WARN" ? `${check.title} (WARN: ${check.reason})` : check.title;
}
