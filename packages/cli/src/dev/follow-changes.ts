import { watchSources } from "./watch.js";

/**
 * The one `--watch` loop of `executa dev`: watches `roots` and runs `onChange` with a short
 * list of the changed paths (relative to `cwd`), one change at a time, in order. A failing
 * `onChange` is reported through `onError` and the loop goes on. Returns the function
 * that stops watching.
 */
export function followChanges(
  roots: readonly string[],
  cwd: string,
  onChange: (changed: string) => Promise<void>,
  onError: (error: unknown) => void,
): () => void {
  let queue = Promise.resolve();
  return watchSources(roots, (paths) => {
    queue = queue.then(() => onChange(shortList(paths, cwd))).catch(onError);
  });
}

/** Up to three paths, relative to `cwd` when inside it, and how many more. */
export function shortList(paths: readonly string[], cwd: string): string {
  const shown = paths
    .slice(0, 3)
    .map((path) => (path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path));
  return `${shown.join(", ")}${paths.length > 3 ? ` and ${paths.length - 3} more` : ""}`;
}
