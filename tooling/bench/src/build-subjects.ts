import { rm } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { buildExecutables, formatBytes, isBuildError } from "@executa/bundler";
import { BUN_TOOLBOX_BUILDS, benchPaths, bunToolboxBinary } from "./subjects.js";

/**
 * The second half of `build:subjects` (tsup.subjects.config.ts builds the DTO plugin):
 * the toolbox as a Node single executable and compiled by Bun without and with `--bytecode`, each
 * into its own folder under `subjects/dist/`. A runtime this machine cannot have gives a warning and no subject (the
 * run lists them as not measured); any other failure fails the build.
 */
async function main(): Promise<void> {
  const paths = benchPaths();
  const toolbox = join(paths.repoRoot, "apps", "toolbox");
  for (const build of BUN_TOOLBOX_BUILDS) {
    const expected = bunToolboxBinary(paths, build);
    const outDir = dirname(expected);
    // No stale binary of an earlier build may stand in for this one.
    await rm(outDir, { recursive: true, force: true });
    try {
      const result = await buildExecutables({
        entry: join(toolbox, "src", "main.ts"),
        tsconfig: join(toolbox, "tsconfig.json"),
        // The toolbox's package.json holds its version (the build's one-version rule reads it).
        projectDir: toolbox,
        outDir,
        name: "toolbox",
        runtime: build.runtime,
        bunBytecode: build.bytecode,
        quiet: true,
      });
      const binary = result.binaries[0]!;
      if (resolve(binary.path) !== expected) {
        throw new Error(`${build.id}: the build wrote ${binary.path}, the bench looks for ${expected}`);
      }
      process.stderr.write(
        `bench: built ${build.id}: ${relative(process.cwd(), binary.path)} (${binary.detail}, ${formatBytes(binary.size)})\n`,
      );
    } catch (error) {
      if (isBuildError(error, "TARGET_UNAVAILABLE")) {
        process.stderr.write(`bench: warning: ${build.id} not built: ${(error.cause as Error).message}\n`);
        continue;
      }
      throw error;
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
