import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import picomatch from "picomatch";
import { parse } from "yaml";

/** The file that marks a pnpm workspace root. */
export const WORKSPACE_FILE = "pnpm-workspace.yaml";

/** The nearest folder at or above `dir` holding a `pnpm-workspace.yaml`, or undefined. */
export function findWorkspaceRoot(dir: string): string | undefined {
  let current = resolve(dir);
  for (;;) {
    if (existsSync(join(current, WORKSPACE_FILE))) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/**
 * The package globs of a `pnpm-workspace.yaml` (its `packages:` list); an empty list when
 * the file has none or is not YAML a workspace could use.
 */
export function workspacePatterns(yaml: string): string[] {
  let document: unknown;
  try {
    document = parse(yaml);
  } catch {
    return [];
  }
  const packages = (document as { packages?: unknown } | null)?.packages;
  return Array.isArray(packages) ? packages.filter((item): item is string => typeof item === "string") : [];
}

/**
 * Whether `dir` is matched by the workspace's package globs (`apps/*`, `packages/**`,
 * `{a,b}`, an exact path), i.e. whether `pnpm install` would link its `workspace:`
 * dependencies. Negated globs (`!…`) exclude.
 */
export function isWorkspaceMember(root: string, dir: string): boolean {
  const path = relative(resolve(root), resolve(dir)).split(sep).join("/");
  if (path === "" || path.startsWith("..")) return false;
  const yaml = readFileSync(join(root, WORKSPACE_FILE), "utf8");
  let member = false;
  for (const pattern of workspacePatterns(yaml)) {
    const negated = pattern.startsWith("!");
    const glob = (negated ? pattern.slice(1) : pattern).replace(/^\.\//, "").replace(/\/+$/, "");
    if (picomatch.isMatch(path, glob)) member = !negated;
  }
  return member;
}
