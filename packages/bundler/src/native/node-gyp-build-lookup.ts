import { readdirSync } from "node:fs";
import { join } from "node:path";
import { hostPrebuildTarget, type PrebuildTarget, pickPrebuild } from "./prebuilds.js";

/** Where `node-gyp-build(dir)` would load an addon from, and what it looked at. */
export interface NodeGypBuildLookup {
  found: string | undefined;
  /** The places searched, as globs, for an error message. */
  tried: string[];
}

/**
 * Finds the file `node-gyp-build(dir)` (4.8) loads: the first `.node` file of
 * `build/Release`, then of `build/Debug`, then the best fitting prebuild under
 * `prebuilds/`. Its run-time extras are left out: `PREBUILDS_ONLY`, the
 * `<PACKAGE>_PREBUILD` folder override and prebuilds next to `process.execPath`.
 */
export function lookUpNodeGypBuildAddon(
  dir: string,
  target: PrebuildTarget = hostPrebuildTarget(),
): NodeGypBuildLookup {
  const builds = [join(dir, "build", "Release"), join(dir, "build", "Debug")];
  const prebuilds = join(dir, "prebuilds");
  const tried = [
    ...builds.map((folder) => join(folder, "*.node")),
    join(prebuilds, `${target.platform}-${target.arch}`, `*.node (napi, or node abi${target.abi})`),
  ];
  for (const folder of builds) {
    const file = addonFilesIn(folder)[0];
    if (file) return { found: join(folder, file), tried };
  }
  return { found: pickPrebuild(prebuilds, target), tried };
}

function addonFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith(".node"));
  } catch {
    return [];
  }
}
