import { type FSWatcher, watch } from "node:fs";
import { join } from "node:path";

/** Options of {@link watchSources}. */
export interface WatchOptions {
  /** Quiet time after the last change before `onChange` runs. Default 150 ms. */
  debounceMs?: number;
  /** Path segments whose changes are ignored. Default: node_modules, .git, dist, .executa. */
  ignore?: readonly string[];
}

/** Folders never worth a restart: dependencies, VCS data, build output, dev data. */
export const DEFAULT_WATCH_IGNORE = ["node_modules", ".git", "dist", ".executa", "coverage"];

/**
 * Watches folders recursively (`fs.watch`) and calls `onChange` with the changed paths
 * once changes stop for `debounceMs` (editors write a file in several steps). Returns
 * the function that stops watching.
 */
export function watchSources(
  roots: readonly string[],
  onChange: (paths: string[]) => void,
  options: WatchOptions = {},
): () => void {
  const debounceMs = options.debounceMs ?? 150;
  const ignore = options.ignore ?? DEFAULT_WATCH_IGNORE;
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const watchers: FSWatcher[] = [];
  for (const root of new Set(roots)) {
    const watcher = watch(root, { recursive: true }, (_event, filename) => {
      const name = filename?.toString();
      if (!name || isIgnored(name, ignore)) return;
      changed.add(join(root, name));
      clearTimeout(timer);
      timer = setTimeout(() => {
        const paths = [...changed];
        changed.clear();
        onChange(paths);
      }, debounceMs);
    });
    watcher.on("error", () => {});
    watchers.push(watcher);
  }
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}

/** Ignored folders, and editor droppings (`file~`, `.file.swp`, `.#file`). */
function isIgnored(relativePath: string, ignore: readonly string[]): boolean {
  const segments = relativePath.split(/[\\/]/);
  const base = segments[segments.length - 1] ?? "";
  return (
    segments.some((segment) => ignore.includes(segment)) ||
    base.endsWith("~") ||
    /\.sw[a-p]$/.test(base) ||
    base.startsWith(".#")
  );
}
