import { realpath } from "node:fs/promises";
import { createRequire } from "node:module";
import { isAbsolute, join, resolve } from "node:path";
import { directAddonShim, type ShimOutcome } from "./loader-shims.js";
import { type NativeAddon, recordNativeAddon } from "./native-addon.js";
import { owningPackage } from "./owning-package.js";

/**
 * The replacement for a `require("./x.node")` (or an import of a `.node` file), with the
 * file recorded in `found`. Fails when the file does not exist.
 */
export async function directAddonShimFor(
  specifier: string,
  resolveDir: string,
  importer: string,
  found: NativeAddon[],
): Promise<ShimOutcome> {
  const packageName = owningPackage(importer)?.name ?? importer;
  const path = addonPath(specifier, resolveDir);
  const file = path === undefined ? undefined : await realpath(path).catch(() => undefined);
  if (file === undefined) {
    return {
      error:
        `${importer} requires the native addon ${specifier}, which does not exist (not built?). ` +
        `Install or build ${packageName} (\`pnpm rebuild ${packageName}\`), then build again.`,
    };
  }
  const addon = recordNativeAddon(found, { packageName, source: file, importer });
  return { name: `addon:${addon.libName}`, contents: directAddonShim(addon) };
}

function addonPath(specifier: string, resolveDir: string): string | undefined {
  if (specifier.startsWith(".") || isAbsolute(specifier)) return resolve(resolveDir, specifier);
  try {
    return createRequire(join(resolveDir, "index.js")).resolve(specifier);
  } catch {
    return undefined;
  }
}
