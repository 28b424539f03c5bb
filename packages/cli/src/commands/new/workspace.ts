import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

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
 * The package globs of a `pnpm-workspace.yaml` (the `packages:` list). Reads only that
 * list, which is all a member check needs; other keys are ignored.
 */
export function workspacePatterns(yaml: string): string[] {
  const patterns: string[] = [];
  let inPackages = false;
  for (const line of yaml.split(/\r?\n/)) {
    if (/^packages\s*:/.test(line)) {
      inPackages = true;
      continue;
    }
    if (!inPackages) continue;
    if (/^\S/.test(line)) break;
    const item = /^\s+-\s*["']?([^"'#\s]+)["']?/.exec(line);
    if (item) patterns.push(item[1]!);
  }
  return patterns;
}

/**
 * Whether `dir` is matched by the workspace's package globs (`apps/*`, `packages/**`, an
 * exact path), i.e. whether `pnpm install` would link its `workspace:` dependencies.
 * Negated globs (`!…`) exclude.
 */
export function isWorkspaceMember(root: string, dir: string): boolean {
  const path = relative(resolve(root), resolve(dir)).split(sep).join("/");
  if (path === "" || path.startsWith("..")) return false;
  const yaml = readFileSync(join(root, WORKSPACE_FILE), "utf8");
  let member = false;
  for (const pattern of workspacePatterns(yaml)) {
    const negated = pattern.startsWith("!");
    if (globMatches(negated ? pattern.slice(1) : pattern, path)) member = !negated;
  }
  return member;
}

/** Matches a pnpm package glob (`*` within one folder name, `**` across folders) against a relative path. */
function globMatches(pattern: string, path: string): boolean {
  const parts = pattern.replace(/^\.\//, "").replace(/\/+$/, "").split("/");
  return matchParts(parts, path.split("/"));
}

function matchParts(pattern: readonly string[], path: readonly string[]): boolean {
  const [head, ...rest] = pattern;
  if (head === undefined) return path.length === 0;
  if (head === "**") {
    for (let skip = 0; skip <= path.length; skip += 1) if (matchParts(rest, path.slice(skip))) return true;
    return false;
  }
  const [first, ...others] = path;
  if (first === undefined) return false;
  const segment = new RegExp(`^${head.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);
  return segment.test(first) && matchParts(rest, others);
}
