import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ExecutaBuildError } from "../errors/build-error.js";

/** The documented message of a build without `@swc/core`. */
export const MISSING_SWC_MESSAGE =
  "@swc/core cannot be resolved. Decorator metadata (design:paramtypes, design:type) is emitted by SWC; " +
  "esbuild alone drops it, so a decorated plugin would lose its parameter types. " +
  "Install it next to tsup: `pnpm add -D @swc/core` (or npm i -D @swc/core).";

/** The `@swc/core` module. */
export type SwcModule = typeof import("@swc/core");

/**
 * Finds `@swc/core` from each directory in turn (the project first, as tsup does), then
 * from this package unless `ownPackage` is false. Returns the resolved file; throws
 * an `ExecutaBuildError` (`MISSING_SWC`, always an error, never a warning) when no
 * directory can see it.
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
  throw new ExecutaBuildError("MISSING_SWC", `${MISSING_SWC_MESSAGE} Searched from: ${searched.join(", ")}`, {
    step: "setup",
  });
}

/** Loads `@swc/core` as {@link resolveSwcPath} finds it. */
export function loadSwc(fromDirs?: readonly string[]): SwcModule {
  const path = resolveSwcPath(fromDirs);
  return createRequire(import.meta.url)(path) as SwcModule;
}
