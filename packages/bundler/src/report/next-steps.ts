import { relative } from "node:path";

/** What a build made that can be run: this platform's binary (when one was built) and the bundle. */
export interface BuiltRunnables {
  /** The binary for the platform the build ran on, if one was built. */
  hostBinary?: string;
  /** The verified `NAME.cjs` bundle, run by node. */
  bundle: string;
}

/**
 * The report's last lines: how to run what was built and how to check it, e.g.
 * `run:   ./dist/weather` and `check: executa check -- ./dist/weather`. The binary when
 * this platform has one, else the bundle under node; paths relative to `cwd` when inside it.
 */
export function nextSteps(built: BuiltRunnables, cwd: string = process.cwd()): string[] {
  const command = built.hostBinary
    ? commandPath(built.hostBinary, cwd)
    : `node ${commandPath(built.bundle, cwd)}`;
  return [`run:   ${command}`, `check: executa check -- ${command}`];
}

/** `./dist/weather` inside `cwd`, else the absolute path; quoted for a POSIX shell when needed. */
function commandPath(path: string, cwd: string): string {
  const near = relative(cwd, path);
  const shown = near && !near.startsWith("..") && !near.startsWith("/") ? `./${near}` : path;
  return /^[\w./:@+-]+$/.test(shown) ? shown : `'${shown.replace(/'/g, `'\\''`)}'`;
}
