import { isAbsolute, join, relative, resolve } from "node:path";
import type { Command } from "commander";
import { detectWorkspace, type ScaffoldResult, scaffold } from "./scaffold.js";

/** Options of `executa new`, as commander parses them. */
interface NewCommandOptions {
  dir?: string;
  /** true for `--workspace`, false for `--no-workspace`, undefined to detect. */
  workspace?: boolean;
}

/**
 * Adds `executa new NAME [--dir D] [--workspace | --no-workspace]` to the program:
 * scaffolds a plugin project that builds and passes its test right away.
 */
export function registerNewCommand(program: Command): Command {
  return program
    .command("new")
    .description("create a plugin project: a decorated class, a test, a tsup build and a README")
    .argument("<name>", 'plugin name, lowercase words joined by "-" or "_" (e.g. hello-world)')
    .option("-d, --dir <dir>", "project folder (default: ./NAME)")
    .option(
      "--workspace",
      "use workspace:* dependencies (default when a pnpm-workspace.yaml is above the folder)",
    )
    .option("--no-workspace", "use the published @executa/* versions even inside a workspace")
    .action((name: string, options: NewCommandOptions) => {
      const dir = resolve(options.dir ?? name);
      const result = scaffold({ name, dir, workspace: options.workspace ?? detectWorkspace(dir) });
      process.stdout.write(summary(result));
      for (const warning of result.warnings) process.stderr.write(`warning: ${warning}\n`);
    });
}

/** What `executa new` prints: the files and the next steps. */
export function summary(result: ScaffoldResult): string {
  const fromCwd = relative(process.cwd(), result.dir);
  const shown = fromCwd === "" ? "." : fromCwd.startsWith("..") || isAbsolute(fromCwd) ? result.dir : fromCwd;
  const lines = [
    `Created the ${result.names.name} plugin in ${shown} (${
      result.workspace ? "workspace:* dependencies" : "published @executa/* versions"
    }):`,
    ...result.files.map((file) => `  ${join(shown, file)}`),
    "",
    "Next:",
    `  cd ${shown}`,
    result.workspace ? "  pnpm install        # at the workspace root" : "  pnpm install",
    "  pnpm test",
    "  pnpm build",
    "  pnpm dev            # executa dev src/main.ts",
    "",
  ];
  return lines.join("\n");
}
