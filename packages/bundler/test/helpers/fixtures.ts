import { fileURLToPath } from "node:url";

/** Absolute path of a file under test/fixtures. */
export function fixture(path: string): string {
  return fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url));
}
