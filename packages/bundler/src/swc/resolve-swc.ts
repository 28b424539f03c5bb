import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MissingSwcError } from "../errors/missing-swc-error.js";

/** The `@swc/core` module. */
export type SwcModule = typeof import("@swc/core");

/**
 * Finds `@swc/core` from each directory in turn (the project first, as tsup does), then
 * from this package unless `ownPackage` is false. Returns the resolved file; throws
 * {@link MissingSwcError} when no directory can see it.
 */
export function resolveSwcPath(
  fromDirs: readonly string[] = [process.cwd()],
  options: { ownPackage?: boolean } = {},
): string {
  const own = options.ownPackage === false ? [] : [fileURLToPath(new URL(".", import.meta.url))];
  const searched = [...fromDirs, ...own];
  for (const dir of searched) {
    try {
      return createRequire(join(dir, "noop.js")).resolve("@swc/core");
    } catch {
      // not visible from here; try the next directory
    }
  }
  throw new MissingSwcError(searched);
}

/** Loads `@swc/core` as {@link resolveSwcPath} finds it. */
export function loadSwc(fromDirs?: readonly string[]): SwcModule {
  const path = resolveSwcPath(fromDirs);
  return createRequire(import.meta.url)(path) as SwcModule;
}
