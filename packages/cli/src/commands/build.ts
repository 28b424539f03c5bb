import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildPlugin, ExecutaBuildError } from "@executa/bundler";
import type { Command } from "commander";
import type { CliIO } from "../cli-io.js";
import { DEFAULT_ENTRIES } from "../dev/target.js";

interface BuildFlags {
  outDir: string;
  name?: string;
  binary: boolean;
  node?: string;
  tsconfig?: string;
  decoratorMetadata: boolean;
  quiet?: boolean;
}

const TSUP_CONFIGS = [
  "tsup.config.ts",
  "tsup.config.mts",
  "tsup.config.cts",
  "tsup.config.js",
  "tsup.config.mjs",
  "tsup.config.cjs",
  "tsup.config.json",
];

/**
 * `executa build [entry]`: the bundler's full build (one-file bundle, single executable,
 * manifest, archive, each verified) for projects without a tsup config of their own.
 */
export function registerBuildCommand(program: Command, io: CliIO): Command {
  return program
    .command("build")
    .summary("build a plugin into a bundle, a single executable, a manifest and an archive")
    .description(
      "Builds a plugin with @executa/bundler, without a tsup.config.ts: dist/NAME.cjs (one file, every " +
        "dependency inlined), the single executable dist/NAME, manifest.json, executa.json and " +
        "NAME-<platform>.tar.gz, each checked to answer describe with the manifest from source.",
    )
    .argument("[entry]", `the plugin's entry (default: ${DEFAULT_ENTRIES.join(" or ")})`)
    .option("-o, --out-dir <dir>", "output folder", "dist")
    .option("--name <name>", "artifact name (default: the manifest's name)")
    .option("--no-binary", "only the bundle and the manifest: no executable, no archive")
    .option("--node <path>", "node binary to embed in the executable (default: this node)")
    .option("--tsconfig <file>", "tsconfig to compile with")
    .option("--no-decorator-metadata", "compile without SWC (only for plugins without decorators)")
    .option("-q, --quiet", "print nothing but failures")
    .action(async (entryArg: string | undefined, flags: BuildFlags, command: Command) => {
      const cwd = process.cwd();
      const entry = entryArg ?? DEFAULT_ENTRIES.find((candidate) => existsSync(resolve(cwd, candidate)));
      if (!entry) command.error(`error: no entry given and none of ${DEFAULT_ENTRIES.join(", ")} exists`);
      if (!existsSync(resolve(cwd, entry!))) command.error(`error: entry ${entry} does not exist`);
      const own = TSUP_CONFIGS.find((file) => existsSync(join(cwd, file)));
      if (own && !flags.quiet) {
        io.stderr.write(`note: ${own} is not read by executa build; run \`tsup\` to build with it\n`);
      }
      try {
        await buildPlugin({
          entry: entry!,
          outDir: flags.outDir,
          name: flags.name,
          binary: flags.binary,
          nodeBinary: flags.node,
          tsconfig: flags.tsconfig,
          decoratorMetadata: flags.decoratorMetadata,
          quiet: flags.quiet,
          write: (text) => io.stdout.write(text),
        });
      } catch (error) {
        if (error instanceof ExecutaBuildError) {
          io.stderr.write(`${error.message}\n`);
          process.exitCode = 1;
          return;
        }
        throw error;
      }
    });
}
