import { realpath } from "node:fs/promises";
import { dirname } from "node:path";
import { nodeGypBuildShim, type ShimOutcome } from "./loader-shims.js";
import { type NativeAddon, recordNativeAddon } from "./native-addon.js";
import { lookUpNodeGypBuildAddon } from "./node-gyp-build-lookup.js";
import { owningPackage } from "./owning-package.js";

/**
 * The `node-gyp-build` replacement for a module that requires it, with the addon recorded
 * in `found`. The folder a package passes to `node-gyp-build(dir)` is computed at run time
 * (`__dirname`, or a folder above it), so each folder from the module's own up to its
 * package root is searched, nearest first, by node-gyp-build's rules. Fails when none
 * holds a build or a fitting prebuild.
 */
export async function nodeGypBuildShimFor(importer: string, found: NativeAddon[]): Promise<ShimOutcome> {
  const owner = owningPackage(importer);
  const packageName = owner?.name ?? importer;
  const tried: string[] = [];
  for (const dir of foldersUpTo(dirname(importer), owner?.root)) {
    const lookup = lookUpNodeGypBuildAddon(dir);
    if (lookup.found !== undefined) {
      const addon = recordNativeAddon(found, { packageName, source: await realpath(lookup.found), importer });
      return { name: `node-gyp-build:${importer}`, contents: nodeGypBuildShim(addon) };
    }
    tried.push(...lookup.tried);
  }
  return {
    error:
      `${packageName} loads its native addon through node-gyp-build, but neither a build nor a prebuild ` +
      `for ${process.platform}-${process.arch} was found:\n${tried.map((path) => `  ${path}`).join("\n")}\n` +
      `Install or build it (\`pnpm rebuild ${packageName}\`), then build again.`,
  };
}

function foldersUpTo(dir: string, root: string | undefined): string[] {
  const folders = [dir];
  while (root !== undefined && dir !== root && dirname(dir) !== dir) {
    dir = dirname(dir);
    folders.push(dir);
  }
  return folders;
}
