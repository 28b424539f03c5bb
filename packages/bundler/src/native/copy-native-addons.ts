import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { LIB_DIR } from "../emit/binary-manifest.js";
import type { NativeAddon } from "./native-addon.js";

/**
 * Copies the build's native addons into `<folder>/lib/`, each under its `libName`, where
 * the bundle's loader looks for them: `dist/` for `node dist/NAME.cjs`, or the folder an
 * archive is made from. Returns the paths written; with no addons it writes nothing, not
 * even `lib/`.
 */
export async function copyNativeAddons(addons: readonly NativeAddon[], folder: string): Promise<string[]> {
  if (addons.length === 0) return [];
  const lib = join(folder, LIB_DIR);
  await mkdir(lib, { recursive: true });
  return Promise.all(
    addons.map(async (addon) => {
      const target = join(lib, addon.libName);
      await copyFile(addon.source, target);
      return target;
    }),
  );
}
