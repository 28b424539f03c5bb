import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { executaVersion as installedVersion, pluginTemplateDir } from "./cli-package.js";
import { pluginPackageJson } from "./package-json.js";
import { platformMatrix } from "./platform-runners.js";
import { type PluginNames, pluginNames } from "./plugin-name.js";
import { outputPath, renderTemplate } from "./render.js";
import { findWorkspaceRoot, isWorkspaceMember } from "./workspace.js";

/** What {@link scaffold} creates. */
export interface ScaffoldOptions {
  /** The plugin's name (manifest and package name), e.g. `hello-world`. */
  name: string;
  /** The project folder; it must not exist yet or be empty. */
  dir: string;
  /**
   * `workspace:*` dependencies (a member of the toolkit's pnpm workspace) instead of the
   * published versions.
   */
  workspace: boolean;
  /** The published `@executa/*` version to depend on. Default: this CLI's own version. */
  executaVersion?: string;
  /** The template folder. Default: `templates/plugin` of `@executa/cli`. */
  templateDir?: string;
}

/** What {@link scaffold} did. */
export interface ScaffoldResult {
  /** The project folder, absolute. */
  dir: string;
  names: PluginNames;
  workspace: boolean;
  /** The files written, relative to {@link dir}, sorted. */
  files: string[];
  /** Things the user should know, e.g. a workspace project outside the workspace's globs. */
  warnings: string[];
}

/**
 * Writes a plugin project: the decorated class (`src/plugin.ts`) and its entry
 * (`src/main.ts`), a vitest test on `@executa/testing`, `tsup.config.ts` with the
 * `executa()` preset, `vitest.config.ts`, `tsconfig.json`, `package.json`, README,
 * `.gitignore` and the GitHub Actions workflow `.github/workflows/release.yml` (checks
 * every pull request, publishes a release for a `v*` tag). Everything is rendered before
 * anything is written, so a failure leaves no half project behind.
 *
 * @throws Error for an invalid name, or a target that exists and is not an empty folder.
 */
export function scaffold(options: ScaffoldOptions): ScaffoldResult {
  const names = pluginNames(options.name);
  const dir = resolve(options.dir);
  checkTarget(dir);
  const version = options.executaVersion ?? installedVersion();
  const templateDir = options.templateDir ?? pluginTemplateDir();
  const values = {
    ...names,
    executaVersion: version,
    platformMatrix: platformMatrix(10),
    dependencyNote: options.workspace
      ? "This project was created inside the Executa toolkit's pnpm workspace, so its `@executa/*` dependencies are `workspace:*`; the last section says how to use it on its own."
      : `Its \`@executa/*\` dependencies are the published \`^${version}\` packages.`,
  };

  const output = new Map<string, string>();
  for (const template of listFiles(templateDir)) {
    const text = readFileSync(join(templateDir, template), "utf8");
    output.set(outputPath(template), renderTemplate(text, values, template));
  }
  const packageJson = pluginPackageJson(names.name, {
    workspace: options.workspace,
    executaVersion: version,
  });
  output.set("package.json", `${JSON.stringify(packageJson, null, 2)}\n`);

  for (const [file, text] of output) {
    const target = join(dir, file);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return {
    dir,
    names,
    workspace: options.workspace,
    files: [...output.keys()].sort(),
    warnings: options.workspace ? workspaceWarnings(dir) : [],
  };
}

/** Whether `dir` lies in a pnpm workspace (a `pnpm-workspace.yaml` at or above it). */
export function detectWorkspace(dir: string): boolean {
  return findWorkspaceRoot(dir) !== undefined;
}

function checkTarget(dir: string): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) throw new Error(`${dir} exists and is not a folder`);
  if (readdirSync(dir).length > 0) {
    throw new Error(`${dir} is not empty; choose another folder with --dir, or empty this one`);
  }
}

function workspaceWarnings(dir: string): string[] {
  const root = findWorkspaceRoot(dir);
  if (!root) {
    return [
      `${dir} is not inside a pnpm workspace, but the project uses workspace:* dependencies; replace them with published versions (see its README) or move it into a workspace`,
    ];
  }
  if (!isWorkspaceMember(root, dir)) {
    return [
      `${relative(root, dir)} is not matched by the packages globs of ${join(root, "pnpm-workspace.yaml")}; move it (e.g. under apps/) or add it there before pnpm install`,
    ];
  }
  return [];
}

/** Files below `root`, relative with `/` separators, sorted. */
function listFiles(root: string, prefix = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...listFiles(root, path));
    else if (entry.isFile()) files.push(path);
  }
  return files.sort();
}
