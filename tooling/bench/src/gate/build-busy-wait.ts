import { readFileSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { buildExecutables, formatBytes } from "@executa/bundler";
import { benchPaths } from "../subjects.js";
import { busyWaitBinary, defaultBinary, detectRuntime } from "./binary.js";

/**
 * Builds the toolbox with a 50 µs busy-wait per base64_encode invoke
 * (`src/gate/busy-wait-toolbox.ts`) with the runtime the default binary was built with
 * (Bun with or without bytecode, or a Node single executable), into
 * `gate/dist/busy-wait/`: the build the gate must fail on.
 */
async function main(): Promise<void> {
  const paths = benchPaths();
  const toolbox = join(paths.repoRoot, "apps", "toolbox");
  const reference = defaultBinary(paths);
  statSync(reference);
  const runtime = detectRuntime(readFileSync(reference));
  const expected = busyWaitBinary(paths);
  await rm(dirname(expected), { recursive: true, force: true });
  const result = await buildExecutables({
    entry: join(paths.benchDir, "src", "gate", "busy-wait-toolbox.ts"),
    tsconfig: join(toolbox, "tsconfig.json"),
    // The toolbox's package.json holds its version (the build's one-version rule reads it).
    projectDir: toolbox,
    outDir: dirname(expected),
    name: "toolbox",
    runtime: runtime.runtime,
    ...(runtime.runtime === "bun" ? { bunBytecode: runtime.bytecode } : {}),
    quiet: true,
  });
  const binary = result.binaries[0]!;
  if (resolve(binary.path) !== expected) {
    throw new Error(`the build wrote ${binary.path}, the gate looks for ${expected}`);
  }
  process.stderr.write(
    `bench: built the 50 µs busy-wait toolbox (${runtime.label}, like ${relative(process.cwd(), reference)}): ${relative(process.cwd(), binary.path)} (${formatBytes(binary.size)})\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
