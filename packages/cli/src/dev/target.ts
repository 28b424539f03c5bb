import { existsSync, statSync } from "node:fs";
import { dirname, extname, isAbsolute, relative, resolve } from "node:path";
import { sourceCommand } from "@executa/bundler";

/** What `executa dev` runs. */
export interface DevTarget {
  /** `typescript`: an entry run through the bundler's SWC transform; `javascript`: run by node; `command`: anything. */
  kind: "typescript" | "javascript" | "command";
  command: string;
  args: string[];
  /** For messages: the entry, or the command line. */
  label: string;
  /** Folders `--watch` watches. */
  watchRoots: string[];
}

const TYPESCRIPT = new Set([".ts", ".mts", ".cts", ".tsx"]);
const JAVASCRIPT = new Set([".js", ".mjs", ".cjs"]);
/** Entries tried when none is given, in order. */
export const DEFAULT_ENTRIES = ["src/main.ts", "src/index.ts"];

/**
 * Decides how to run `executa dev`'s operands: one `.ts` file runs from source with the
 * same SWC transform as the build (so decorator metadata is there); one `.js` file runs
 * with this node; anything else is a command line (`-- ./dist/weather --flag`). With no
 * operands, the first of {@link DEFAULT_ENTRIES} that exists.
 *
 * @throws Error naming what is missing.
 */
export function resolveTarget(operands: readonly string[], cwd = process.cwd()): DevTarget {
  if (operands.length === 0) {
    const found = DEFAULT_ENTRIES.find((entry) => existsSync(resolve(cwd, entry)));
    if (!found) {
      throw new Error(
        `no entry given and none of ${DEFAULT_ENTRIES.join(", ")} exists in ${cwd}; run \`executa dev src/main.ts\` or \`executa dev -- <command>\``,
      );
    }
    return resolveTarget([found], cwd);
  }
  const [first, ...rest] = operands as [string, ...string[]];
  const extension = extname(first).toLowerCase();
  if (rest.length === 0 && (TYPESCRIPT.has(extension) || JAVASCRIPT.has(extension))) {
    const entry = resolve(cwd, first);
    if (!existsSync(entry) || !statSync(entry).isFile()) throw new Error(`entry ${first} does not exist`);
    const label = relative(cwd, entry) || entry;
    if (TYPESCRIPT.has(extension)) {
      const { command, args } = sourceCommand(entry);
      return { kind: "typescript", command, args, label, watchRoots: [dirname(entry)] };
    }
    return {
      kind: "javascript",
      command: process.execPath,
      args: [entry],
      label,
      watchRoots: [dirname(entry)],
    };
  }
  return {
    kind: "command",
    command: first,
    args: rest,
    label: operands.join(" "),
    watchRoots: [commandWatchRoot(operands, cwd)],
  };
}

/** The folder of the first operand that names an existing file (the script or binary), else `cwd`. */
function commandWatchRoot(operands: readonly string[], cwd: string): string {
  for (const operand of operands) {
    if (operand.startsWith("-")) continue;
    const path = isAbsolute(operand) ? operand : resolve(cwd, operand);
    if ((operand.includes("/") || operand.includes(".")) && existsSync(path) && statSync(path).isFile()) {
      return dirname(path);
    }
  }
  return cwd;
}
