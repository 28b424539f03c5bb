import { readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative } from "node:path";
import type { Options } from "tsup";

// The product owns the Node target (plugin bundles are built for it); the workspace builds follow it.
export { NODE_TARGET } from "../../../packages/bundler/src/preset/node-target.js";

import { NODE_TARGET } from "../../../packages/bundler/src/preset/node-target.js";

/**
 * Makes the paths of the source maps under `dir` (`file`, `sources`) relative. tsup's
 * CommonJS code splitting writes the absolute path of the chunk it converted; published as
 * is, a map would name the build machine's folders.
 */
export async function relativizeSourceMaps(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { recursive: true })) {
    if (!entry.endsWith(".map")) continue;
    const file = join(dir, entry);
    const map = parseMap(await readFile(file, "utf8"));
    // A build of another config of the same package may still be writing this map; that
    // build's own pass fixes it once it is complete.
    if (!map) continue;
    const local = (path: string) => (isAbsolute(path) ? relative(dirname(file), path) : path);
    const fixed = { ...map, file: map.file && local(map.file), sources: map.sources?.map(local) };
    if (JSON.stringify(fixed) !== JSON.stringify(map)) await writeFile(file, JSON.stringify(fixed));
  }
}

function parseMap(text: string): { file?: string; sources?: string[] } | undefined {
  try {
    return JSON.parse(text) as { file?: string; sources?: string[] };
  } catch {
    return undefined;
  }
}

/** What every build of a workspace package shares, whatever its entries and formats. */
const shared = {
  sourcemap: true,
  target: NODE_TARGET,
  onSuccess: () => relativizeSourceMaps("dist"),
} satisfies Options;

/**
 * A package's library build: `src/index.ts` as ESM and CommonJS with declarations, into a
 * freshly cleaned `dist`. `options` add to or override these defaults; several entries
 * go in `entry` as a name → source map.
 *
 * Code splitting is on for both formats (tsup splits only ESM by default): the entries of
 * one package then load their shared modules from common chunks, so a class or module
 * state (an AsyncLocalStorage) has one instance whichever entry a user imports.
 *
 * @example export default defineConfig(libraryBuild());
 * @example export default defineConfig(libraryBuild({ entry: { index: "src/index.ts", internal: "src/internal.ts" } }));
 */
export function libraryBuild(options: Options = {}): Options {
  return {
    entry: ["src/index.ts"],
    format: ["esm", "cjs"],
    dts: true,
    clean: true,
    splitting: true,
    ...shared,
    ...options,
  };
}

/**
 * A further build listed after {@link libraryBuild} in the same config (a bin, extra
 * entries in another format): it writes into the same `dist`, so it does not clean it.
 * Builds in one config run at once, and the library's declaration build removes the
 * `.d.ts` files in `dist`: an extra build with `dts` belongs in a config of its own, run
 * after the library's (as `@executa/bundler`'s register entry is).
 *
 * @example export default defineConfig([libraryBuild(), extraBuild({ entry: { cli: "src/cli.ts" }, format: ["cjs"] })]);
 */
export function extraBuild(options: Options): Options {
  return { clean: false, ...shared, ...options };
}
