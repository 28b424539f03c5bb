import { resolve } from "node:path";
import { runnerForBinary } from "@executa/bundler";
import {
  type BatchConformanceReport,
  CHECK_GROUP_IDS,
  CHECK_IDS,
  type CheckResult,
  type ConformanceReport,
  runBatchConformance,
  runConformance,
} from "@executa/host";
import { type Command, InvalidArgumentError } from "commander";
import { formatCheckLine, formatNotRun, formatReportHeader, formatSummary } from "../check/format-report.js";
import type { CliIO } from "../cli-io.js";
import { useColor } from "../cli-io.js";

interface CheckFlags {
  json?: boolean;
  skip?: string[];
  cwd?: string;
}

/**
 * `executa check [options] -- command [args…]`: the conformance report for any plugin
 * executable. Exit code 1 when a check failed, 2 for bad usage.
 */
export function registerCheckCommand(program: Command, io: CliIO): Command {
  return program
    .command("check")
    .summary("conformance report for any plugin executable")
    .description(
      "Runs a plugin executable (any language) through the Executa protocol's conformance checks and " +
        "reports PASS / WARN / FAIL for each, then a summary. Exits 1 when a check failed.\n\n" +
        `Checks: ${CHECK_IDS.join(", ")}.`,
    )
    .argument("<command>", "the plugin executable")
    .argument("[args...]", "its arguments (put `--` before the command when they start with -)")
    .option("--json", "print the report as JSON")
    .option("--skip <id>", "leave out a check or a group (repeatable)", collectCheckId)
    .option("--cwd <dir>", "working directory of the plugin")
    .addHelpText(
      "after",
      "\nExamples:\n  executa check -- ./dist/weather\n  executa check --json -- node plugin.mjs --verbose",
    )
    .action(async (command: string, args: string[], flags: CheckFlags) => {
      const color = useColor(io.stdout);
      const start = await startCommand(command, args, flags.cwd);
      if ("refusal" in start) {
        io.stderr.write(`executa check: ${start.refusal}\n`);
        process.exitCode = 1;
        return;
      }
      if (start.note) io.stderr.write(`executa check: ${start.note}\n`);
      if (!flags.json) io.stdout.write(`${formatReportHeader({ command, args })}\n`);
      const onResult = flags.json
        ? undefined
        : (result: CheckResult) => io.stdout.write(`${formatCheckLine(result, { color })}\n`);
      const report = await runChecks(start, flags, onResult);
      if ("notRun" in report && !flags.json) io.stdout.write(formatNotRun(report.notRun, start.batch?.via));
      if (flags.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else io.stdout.write(`\n${formatSummary(report, { color })}\n`);
      if (!report.summary.ok) process.exitCode = 1;
    });
}

/** The live conformance checks, or, for a binary whose runner cannot give it pipes, the batch ones. */
async function runChecks(
  start: Extract<StartCommand, { command: string }>,
  flags: CheckFlags,
  onResult: ((result: CheckResult) => void) | undefined,
): Promise<ConformanceReport | BatchConformanceReport> {
  if (!start.batch) {
    return runConformance(start.command, start.args, { cwd: flags.cwd, skip: flags.skip, onResult });
  }
  return runBatchConformance(start.command, start.args, {
    cwd: flags.cwd,
    env: { ...process.env, ...start.batch.env },
    describeTimeoutMs: EMULATED_DESCRIBE_MS,
    onResult,
  });
}

/**
 * What to start: the command itself, or a foreign executable under its emulator (on files
 * in batch mode when the emulator cannot give it pipes); or why it cannot run here.
 */
type StartCommand =
  | {
      command: string;
      args: string[];
      note?: string;
      batch?: { via: string; env: Readonly<Record<string, string>> };
    }
  | { refusal: string };

/** How long a binary under an emulator may take to answer `describe` (it starts many times slower). */
const EMULATED_DESCRIBE_MS = 30_000;

async function startCommand(command: string, args: string[], cwd?: string): Promise<StartCommand> {
  const binary = await runnerForBinary(resolve(cwd ?? ".", command));
  if (!binary || binary.lookup.runner?.via === "native") return { command, args };
  const { platform, here, lookup } = binary;
  if (!lookup.runner) {
    return {
      refusal:
        `${command} is a ${platform} executable and this machine is ${here}: ${lookup.why}. ` +
        `Check it on ${platform}` +
        (platform.startsWith("linux-")
          ? " or under QEMU user-mode emulation here (apt-get install qemu-user-static)."
          : "."),
    };
  }
  const runner = lookup.runner;
  const started = runner.command(command);
  const batch = runner.stdio === "files";
  return {
    command: started.command,
    args: [...(started.args ?? []), ...args],
    note:
      `${command} is a ${platform} executable: checking it under ${runner.via}` +
      (batch ? " in batch mode (stdin and stdout on files)" : ""),
    batch: batch ? { via: runner.via, env: runner.env ?? {} } : undefined,
  };
}

function collectCheckId(value: string, previous: string[] = []): string[] {
  if (!CHECK_IDS.includes(value) && !CHECK_GROUP_IDS.includes(value)) {
    throw new InvalidArgumentError(`unknown check; one of: ${[...CHECK_IDS, ...CHECK_GROUP_IDS].join(", ")}`);
  }
  return [...previous, value];
}
