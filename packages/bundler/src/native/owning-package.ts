import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** The package a file belongs to. */
export interface OwningPackage {
  /** Its `name`, or its folder's name when its package.json has none. */
  name: string;
  /** The folder holding its package.json. */
  root: string;
}

/**
 * The package of a file: the nearest folder above it with a package.json. Undefined when
 * there is none up to the file system's root.
 */
export function owningPackage(file: string): OwningPackage | undefined {
  const root = findUp(dirname(file), (dir) => existsSync(join(dir, "package.json")));
  if (root === undefined) return undefined;
  return { name: packageName(join(root, "package.json")) ?? basename(root), root };
}

/**
 * The module root `bindings` searches from, by its `getRoot` rule (bindings 1.5.0): the
 * nearest folder above the calling file that holds a package.json or a node_modules folder.
 */
export function bindingsModuleRoot(file: string): string | undefined {
  return findUp(
    dirname(file),
    (dir) => existsSync(join(dir, "package.json")) || existsSync(join(dir, "node_modules")),
  );
}

function findUp(dir: string, found: (dir: string) => boolean): string | undefined {
  for (;;) {
    if (found(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function packageName(manifest: string): string | undefined {
  try {
    const { name } = JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown };
    return typeof name === "string" && name !== "" ? name : undefined;
  } catch {
    return undefined;
  }
}
