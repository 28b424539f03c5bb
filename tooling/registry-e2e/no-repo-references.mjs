import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join, relative } from "node:path";
import { isInside } from "./clean-env.mjs";

/** Specifiers that install from a folder or a workspace instead of the registry. */
const LOCAL_SPECIFIER = /\b(?:file|link|workspace|portal):/;

/** Dependency ranges of package.json that are not registry versions. */
function localSpecifiers(manifest) {
  const found = [];
  for (const field of ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"]) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (LOCAL_SPECIFIER.test(range) || /^(?:\.{1,2}\/|\/|~\/)/.test(range))
        found.push(`${field}.${name}: ${range}`);
    }
  }
  return found;
}

/** Files and symlinks below `dir` (symlinks not followed), depth first. */
function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) yield { path, link: true };
    else if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield { path, link: false };
  }
}

/** Problems in node_modules: links leaving the project, files naming the repository (source maps included). */
function nodeModulesProblems(projectDir, repoRoot) {
  const problems = [];
  const needle = Buffer.from(repoRoot);
  let files = 0;
  for (const { path, link } of walk(join(projectDir, "node_modules"))) {
    const shown = relative(projectDir, path);
    if (link) {
      const target = existsSync(path) ? realpathSync(path) : `(dangling) ${path}`;
      if (!isInside(projectDir, target)) problems.push(`${shown} links to ${target}`);
      continue;
    }
    files += 1;
    if (lstatSync(path).size > 256 * 1024 * 1024 || !readFileSync(path).includes(needle)) continue;
    problems.push(`${shown} names ${repoRoot}`);
  }
  return { problems, files };
}

/**
 * Checks that nothing installed or built in `projectDir` comes from or points into the
 * repository: package.json ranges are registry versions, the lockfile has no local
 * specifiers and no repository path, every symlink under node_modules stays inside the
 * project, and no installed or built file (source maps included: they would name the build
 * machine's folders) contains the repository's path.
 *
 * @returns how many files were searched.
 * @throws Error listing every problem found.
 */
export function assertNoRepoReferences(projectDir, repoRoot) {
  const root = realpathSync(repoRoot);
  const problems = localSpecifiers(JSON.parse(readFileSync(join(projectDir, "package.json"), "utf8")));
  const lockfile = readFileSync(join(projectDir, "pnpm-lock.yaml"), "utf8");
  for (const line of lockfile.split("\n")) {
    if (LOCAL_SPECIFIER.test(line) || line.includes(root)) problems.push(`pnpm-lock.yaml: ${line.trim()}`);
  }
  const installed = nodeModulesProblems(projectDir, root);
  problems.push(...installed.problems);
  let files = installed.files;
  for (const { path } of walk(join(projectDir, "dist"))) {
    files += 1;
    if (readFileSync(path).includes(Buffer.from(root)))
      problems.push(`${relative(projectDir, path)} names ${root}`);
  }
  if (problems.length > 0) {
    throw new Error(`the project refers back to the repository:\n  ${problems.slice(0, 30).join("\n  ")}`);
  }
  return { files };
}
