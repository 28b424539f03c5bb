import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The `version` of the `package.json` at `file`; undefined when it is missing, not JSON or has none. */
export function packageVersionOf(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const { version } = JSON.parse(readFileSync(file, "utf8")) as { version?: unknown };
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The `version` of the nearest `package.json` above `file`, if it has one. */
export function packageVersionAbove(file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) return packageVersionOf(manifest);
    if (dirname(dir) === dir) return undefined;
  }
}
