import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Why a package's built output may not match its source (undefined when it does): the
 * bench spawns built code, so a stale dist would measure old code.
 */
export function staleBuild(packageDir: string, builtFile = "dist/index.js"): string | undefined {
  const built = join(packageDir, builtFile);
  if (!existsSync(built)) return `${built} does not exist`;
  const source = join(packageDir, "src");
  if (existsSync(source) && newestMtime(source) > statSync(built).mtimeMs) {
    return `${source} has changes newer than ${built}`;
  }
  return undefined;
}
