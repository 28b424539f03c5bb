import { readFile, writeFile } from "node:fs/promises";

/**
 * Environment variables a Node single executable must not read: `NODE_OPTIONS` would load
 * code (`--require`, `--import`) or open the inspector (`--inspect`) before the bundle's
 * first line, from whatever environment the plugin is started in.
 */
export const NODE_CODE_ENVIRONMENT_VARIABLES = ["NODE_OPTIONS"] as const;

/**
 * Environment variables a Bun executable must not read: `BUN_OPTIONS` (`--preload`),
 * `BUN_INSPECT`, `BUN_INSPECT_CONNECT_TO` and `BUN_INSPECT_PRELOAD` (debugger, preloaded
 * code), and `BUN_BE_BUN` (runs the Bun CLI instead of the plugin). Bun ignores `NODE_OPTIONS`.
 */
export const BUN_CODE_ENVIRONMENT_VARIABLES = [
  "BUN_OPTIONS",
  "BUN_INSPECT",
  "BUN_INSPECT_CONNECT_TO",
  "BUN_INSPECT_PRELOAD",
  "BUN_BE_BUN",
] as const;

/** A byte range of the file that is not the runtime's own (e.g. the embedded application). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The name a variable is renamed to: as many underscores as it has characters. The
 * binary's layout is unchanged, and no environment sets such a variable.
 */
export function disabledName(name: string): string {
  return "_".repeat(name.length);
}

/**
 * Makes a runtime binary blind to environment variables by renaming, in place, the
 * NUL-terminated string it passes to `getenv` (same length, see {@link disabledName}).
 * Only a C string counts: `\0NAME\0`, and not when the four bytes before the name are its
 * length (a V8 heap string of the startup snapshot, which JavaScript reads, not `getenv`).
 * Help text, error messages and embedded JavaScript contain the name inside longer strings
 * and are left as they are, and so is `skip` (the embedded application).
 *
 * Each name must occur exactly once; otherwise nothing is changed and this throws, naming
 * the counts: a runtime whose layout is not the one this was checked on is not patched blindly.
 * Works the same on ELF, Mach-O and PE files (a Mach-O signature must be made afterwards).
 */
export function disableEnvironmentVariables(file: Buffer, names: readonly string[], skip?: ByteRange): void {
  const found = names.map((name) => ({ name, at: cStringOffsets(file, name, skip) }));
  const wrong = found.filter(({ at }) => at.length !== 1);
  if (wrong.length > 0) {
    throw new Error(
      `cannot disable ${wrong.map(({ name }) => name).join(", ")} in this binary: expected the ` +
        `variable's name once as a C string, found ${wrong.map(({ name, at }) => `${name} ${at.length}×`).join(", ")}`,
    );
  }
  for (const { name, at } of found) file.write(disabledName(name), at[0]!, "latin1");
}

/** Offsets of `name` where it stands alone as a NUL-terminated string, outside `skip`. */
function cStringOffsets(file: Buffer, name: string, skip?: ByteRange): number[] {
  const needle = Buffer.from(`\0${name}\0`, "latin1");
  const offsets: number[] = [];
  for (let at = file.indexOf(needle); at !== -1; at = file.indexOf(needle, at + 1)) {
    const start = at + 1;
    if (skip && start < skip.end && start + name.length > skip.start) continue;
    if (start >= 4 && file.readUInt32LE(start - 4) === name.length) continue;
    offsets.push(start);
  }
  return offsets;
}

/** {@link disableEnvironmentVariables} on a file on disk; `skip` may be computed from its bytes. */
export async function disableEnvironmentVariablesInFile(
  path: string,
  names: readonly string[],
  skip?: (file: Buffer) => ByteRange | undefined,
): Promise<void> {
  const file = await readFile(path);
  disableEnvironmentVariables(file, names, skip?.(file));
  await writeFile(path, file);
}
