import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { type BenchPaths, executableName } from "../subjects.js";

/** The runtime an executable was built with, as far as its bytes tell. */
export interface DetectedRuntime {
  /** The budget file's key for it: `node-sea`, `bun` or `bun-bytecode`. */
  key: "node-sea" | "bun" | "bun-bytecode";
  runtime: "bun" | "node";
  /** Bun only: its modules were compiled to bytecode (`--bytecode`). */
  bytecode: boolean;
  label: string;
}

const BUN_TRAILER = Buffer.from("\n---- Bun! ----\n");
const BUN_SOURCE_MARK = Buffer.from("// @bun ");
const BUN_BYTECODE_MARK = Buffer.from("// @bun @bytecode");

/**
 * Bun executables carry their module graph before Bun's trailer, the entry point's code
 * last, marked `// @bun @bytecode` when compiled to bytecode (`// @bun` otherwise);
 * anything without the trailer is taken as a Node single executable (how the bundler
 * builds otherwise).
 */
export function detectRuntime(bytes: Buffer): DetectedRuntime {
  const trailer = bytes.lastIndexOf(BUN_TRAILER);
  if (trailer === -1) {
    return { key: "node-sea", runtime: "node", bytecode: false, label: "Node single executable" };
  }
  const mark = bytes.lastIndexOf(BUN_SOURCE_MARK, trailer);
  const bytecode =
    mark !== -1 && bytes.subarray(mark, mark + BUN_BYTECODE_MARK.length).equals(BUN_BYTECODE_MARK);
  return bytecode
    ? { key: "bun-bytecode", runtime: "bun", bytecode, label: "Bun + bytecode" }
    : { key: "bun", runtime: "bun", bytecode, label: "Bun" };
}

/** The runtime of an executable file and how the gate names it (path, runtime, size). */
export function describeBinary(file: string, repoRoot: string): { runtime: DetectedRuntime; text: string } {
  const bytes = readFileSync(file);
  const runtime = detectRuntime(bytes);
  const size = (bytes.length / 1024 / 1024).toFixed(1);
  return { runtime, text: `${relative(repoRoot, file)} (${runtime.label}, ${size} MiB)` };
}

/** The toolbox's default binary: whatever runtime `apps/toolbox` built it with. */
export function defaultBinary(paths: BenchPaths): string {
  return join(paths.repoRoot, "apps", "toolbox", "dist", executableName("toolbox"));
}

/** The toolbox built with a 50 µs busy-wait per invoke (`build:busy-wait`). */
export function busyWaitBinary(paths: BenchPaths): string {
  // Not under subjects/dist, which build:subjects empties.
  return join(paths.benchDir, "gate", "dist", "busy-wait", executableName("toolbox"));
}
