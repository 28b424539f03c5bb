import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * Gives a generated project outside the workspace a `node_modules` of symlinks to this
 * workspace's installed packages: `@executa/<pkg>` → `packages/<pkg>` (whose `exports`
 * point at their built `dist`), everything else → the workspace's installed copy of the
 * same package. That is what `pnpm install` of a workspace member produces (workspace
 * packages linked, third-party packages symlinked from the store), without touching the
 * workspace's lockfile or install state. Node resolves each symlink to its real path, so
 * a package's own dependencies come from where the workspace installed them.
 *
 * @returns the linked package folders (real paths) by name.
 * @throws Error naming a dependency the workspace has not installed.
 */
export function linkDependencies(projectDir: string, workspaceRoot: string): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(projectDir, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
  const linked = new Map<string, string>();
  for (const name of names) {
    const source = locate(name, workspaceRoot);
    const target = join(projectDir, "node_modules", name);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(source, target, "dir");
    linked.set(name, source);
  }
  return linked;
}

/** The real folder of an installed package, searched the way the workspace holds them. */
function locate(name: string, root: string): string {
  const workspacePackage = /^@executa\/(.+)$/.exec(name);
  const candidates = workspacePackage
    ? [join(root, "packages", workspacePackage[1]!)]
    : [
        join(root, "node_modules", name),
        ...readdirSync(join(root, "packages")).map((pkg) =>
          join(root, "packages", pkg, "node_modules", name),
        ),
      ];
  const found = candidates.find((dir) => existsSync(join(dir, "package.json")));
  if (!found) throw new Error(`the workspace has no installed ${name} (looked in ${candidates.join(", ")})`);
  return realpathSync(found);
}

/** The absolute path of a package's bin script (`bin` of its package.json). */
export function binOf(packageDir: string, bin?: string): string {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    name: string;
    bin?: string | Record<string, string>;
  };
  const entry =
    typeof manifest.bin === "string"
      ? manifest.bin
      : manifest.bin?.[bin ?? manifest.name.replace(/^@.*\//, "")];
  if (!entry) throw new Error(`${manifest.name} has no bin ${bin ?? ""}`);
  return join(packageDir, entry);
}
