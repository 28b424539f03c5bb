import { Command } from "commander";
import { type CliIO, processIO } from "./cli-io.js";
import { registerBuildCommand } from "./commands/build.js";
import { registerCheckCommand } from "./commands/check.js";
import { registerCompatCommand } from "./commands/compat.js";
import { registerDevCommand } from "./commands/dev.js";
import { registerDocsCommand } from "./commands/docs.js";
import { registerMcpConfigCommand } from "./commands/mcp-config.js";
import { executaVersion, registerNewCommand } from "./commands/new/index.js";

/**
 * The `executa` command line: `dev`, `check`, `build`, `compat`, `mcp-config`, `new` and
 * `docs`. Call `parseAsync(argv)`; commands set `process.exitCode` to report failure.
 */
export function createProgram(io: CliIO = processIO()): Command {
  const program = new Command("executa")
    .description("Develop, check and build Executa plugins.")
    .version(executaVersion(), "-v, --version")
    .showHelpAfterError("(add --help for usage)")
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  registerDevCommand(program, io);
  registerCheckCommand(program, io);
  registerBuildCommand(program, io);
  registerCompatCommand(program, io);
  registerMcpConfigCommand(program, io);
  registerNewCommand(program);
  registerDocsCommand(program, io);
  return program;
}
