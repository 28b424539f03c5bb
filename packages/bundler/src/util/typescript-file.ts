/** A TypeScript source file name: `.ts`, `.tsx`, `.mts`, `.cts` (and their `x` forms). */
export const TYPESCRIPT_FILE = /\.[cm]?tsx?$/;

/** Whether `path` lies in an installed package (published packages ship compiled JavaScript). */
export function inNodeModules(path: string): boolean {
  return path.includes("/node_modules/") || path.includes("\\node_modules\\");
}
