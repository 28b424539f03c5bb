import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The file URL of `@executa/bundler/register` (dist/register.js of this package), for
 * `node --import`. Found from the package root, so it works whether this code runs from
 * the built package or from its sources (as in tests).
 */
export function registerModuleUrl(): URL {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && packageName(manifest) === "@executa/bundler") {
      const file = join(dir, "dist", "register.js");
      if (!existsSync(file)) {
        throw new Error(
          `${file} is missing: build @executa/bundler first (pnpm --filter @executa/bundler build)`,
        );
      }
      return pathToFileURL(file);
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("cannot find the @executa/bundler package root");
    dir = parent;
  }
}

function packageName(file: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { name?: string }).name;
  } catch {
    return undefined;
  }
}
