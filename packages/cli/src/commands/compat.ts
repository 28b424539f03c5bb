import { resolve } from "node:path";
import { type CompatReport, checkCompatibility, comparable, readSurface } from "@executa/bundler";
import type { Command } from "commander";
import type { CliIO } from "../cli-io.js";

interface CompatFlags {
  json?: boolean;
}

/**
 * `executa compat OLD NEW`: the tool-surface changes between two releases as Markdown for
 * release notes. Exit code 1 when a change breaks callers of OLD and NEW's version is not
 * bumped enough (major, or minor below 1.0), 2 when a file cannot be read.
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
    .argument("<old>", "the released surface")
    .argument("<new>", "the surface to release")
    .option("--json", "print the changes and the verdict as JSON")
    .addHelpText(
      "after",
      "\nExamples:\n  executa compat executa.surface.json dist/manifest.json\n" +
        "  executa compat weather-1.2.0-linux-x86_64.tar.gz dist/manifest.json >> NOTES.md",
    )
    .action(async (oldFile: string, newFile: string, flags: CompatFlags) => {
      let report: CompatReport;
      let namesOnly: boolean;
      try {
        const [before, after] = await Promise.all([
          readSurface(resolve(oldFile)),
          readSurface(resolve(newFile)),
        ]);
        namesOnly = before.namesOnly || after.namesOnly;
        report = checkCompatibility(...comparable(before, after));
      } catch (error) {
        io.stderr.write(`executa compat: ${(error as Error).message}\n`);
        process.exitCode = 2;
        return;
      }
      if (flags.json)
        io.stdout.write(`${JSON.stringify({ changes: report.changes, verdict: report.verdict }, null, 2)}\n`);
      else io.stdout.write(report.markdown);
      if (namesOnly) {
        io.stderr.write("executa compat: an executa.json names tools only; parameters were not compared\n");
      }
      if (!report.verdict.ok) {
        io.stderr.write(
          `executa compat: breaking changes need version ${report.verdict.minimum} or later (this is ${report.verdict.to})\n`,
        );
        process.exitCode = 1;
      }
    });
}
