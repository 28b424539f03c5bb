import { resolve } from "node:path";
import {
  type CompatReport,
  checkCompatibility,
  comparable,
  readSurface,
  SURFACE_FILE,
} from "@executa/bundler";
import type { Command } from "commander";
import type { CliIO } from "../cli-io.js";
import { previousRelease } from "../compat/previous-release.js";

interface CompatFlags {
  json?: boolean;
  previousRelease?: boolean;
}

/**
 * `executa compat OLD NEW`: the tool-surface changes between two releases as Markdown for
 * release notes. With `--previous-release`, `executa compat NEW`: OLD is the
 * `executa.surface.json` of the last release tag before HEAD (from git). Exit code 1 when a
 * change breaks callers of OLD and NEW's version is not bumped enough (major, or minor
 * below 1.0), 2 when a file (or the previous release) cannot be read.
 */
export function registerCompatCommand(program: Command, io: CliIO): Command {
  return program
    .command("compat")
    .summary("what changed in the tool surface, and whether the version says so")
    .description(
      "Compares two tool surfaces (manifest.json, executa.surface.json, executa.json, or a release " +
        "archive .tar.gz/.zip) and prints every change as Markdown, breaking or compatible. Exits 1 when a " +
        "change breaks callers of OLD and NEW's version is not a major bump (a minor one below 1.0).\n\n" +
        "Breaking: a tool or parameter removed or renamed, a parameter newly required or of another type, " +
        "enum values removed, bounds tightened, a credential newly required, an output field removed.",
    )
    .argument("[old]", "the released surface")
    .argument("[new]", "the surface to release")
    .option("--json", "print the changes and the verdict as JSON")
    .option(
      "--previous-release",
      `compare NEW (the only file given) with the ${SURFACE_FILE} of the last release: the highest v* tag ` +
        "on this commit's history, its own tags left out (read with git; the history must not be shallow)",
    )
    .addHelpText(
      "after",
      "\nExamples:\n  executa compat executa.surface.json dist/manifest.json\n" +
        "  executa compat weather-1.2.0-linux-x86_64.tar.gz dist/manifest.json >> NOTES.md\n" +
        "  executa build --no-binary --surface-out surface.json && executa compat --previous-release surface.json",
    )
    .action(
      async (first: string | undefined, second: string | undefined, flags: CompatFlags, command: Command) => {
        const files = [first, second].filter((file): file is string => file !== undefined);
        if (files.length !== (flags.previousRelease ? 1 : 2)) command.error(`error: ${usageError(flags)}`);
        let compared: Compared;
        try {
          compared = await compare(files, flags);
        } catch (error) {
          io.stderr.write(`executa compat: ${(error as Error).message}\n`);
          process.exitCode = 2;
          return;
        }
        process.exitCode = printReport(compared, flags, io);
      },
    );
}

interface Compared {
  report: CompatReport;
  /** An `executa.json` was one side: tool names only. */
  namesOnly: boolean;
}

function usageError(flags: CompatFlags): string {
  return flags.previousRelease
    ? "with --previous-release, give one file: the surface to release"
    : "give two files: the released surface and the surface to release";
}

/** OLD (a file, or the previous release's surface) against NEW, the last file. */
async function compare(files: readonly string[], flags: CompatFlags): Promise<Compared> {
  const [before, after] = await Promise.all([
    flags.previousRelease
      ? previousRelease(process.cwd()).then((release) => release.surface)
      : readSurface(resolve(files[0]!)),
    readSurface(resolve(files.at(-1)!)),
  ]);
  return {
    report: checkCompatibility(...comparable(before, after)),
    namesOnly: before.namesOnly || after.namesOnly,
  };
}

/** Prints the report (Markdown, or JSON with `--json`); returns the exit code. */
function printReport({ report, namesOnly }: Compared, flags: CompatFlags, io: CliIO): number {
  if (flags.json)
    io.stdout.write(`${JSON.stringify({ changes: report.changes, verdict: report.verdict }, null, 2)}\n`);
  else io.stdout.write(report.markdown);
  if (namesOnly) {
    io.stderr.write("executa compat: an executa.json names tools only; parameters were not compared\n");
  }
  if (report.verdict.ok) return 0;
  io.stderr.write(
    `executa compat: breaking changes need version ${report.verdict.minimum} or later (this is ${report.verdict.to})\n`,
  );
  return 1;
}
