import { createRequire } from "node:module";
import { join } from "node:path";

/** The `typescript` module (the compiler API). */
export type TypeScriptModule = typeof import("typescript");

/**
 * Loads the compiler API the project itself uses (resolved from `fromDir`, so the
 * analysis reads the types with the TypeScript version that checks them), else the one
 * this package resolves. `undefined` when neither can be found.
 */
export function loadTypeScript(fromDir: string): TypeScriptModule | undefined {
  for (const base of [join(fromDir, "noop.js"), import.meta.url]) {
    try {
      return createRequire(base)("typescript") as TypeScriptModule;
    } catch {
      // not visible from here; try the next one
    }
  }
  return undefined;
}
