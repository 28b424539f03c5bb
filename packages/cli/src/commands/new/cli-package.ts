import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const CLI_PACKAGE = "@executa/cli";

/**
 * The folder of this module: `__dirname` in the CommonJS `executa` bin, `import.meta.url`
 * in the ESM build and under vitest.
 */
function moduleDir(): string {
  if (typeof __dirname === "string") return __dirname;
  return dirname(fileURLToPath(import.meta.url));
}

let root: string | undefined;

/**
 * The root of the installed `@executa/cli` package (where `templates/` lives): the nearest
 * folder above this module whose package.json is `@executa/cli`. The same from `src/`
 * (tests), `dist/` (built) or an npm install.
 */
export function cliPackageRoot(): string {
  if (root) return root;
  let current = moduleDir();
  for (;;) {
    const manifest = join(current, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === CLI_PACKAGE) {
          root = current;
          return current;
        }
      } catch {
        // Not a readable package.json: keep looking upwards.
      }
    }
    const parent = dirname(current);
    if (parent === current) throw new Error(`cannot find the ${CLI_PACKAGE} package above ${moduleDir()}`);
    current = parent;
  }
}

/** The version of `@executa/cli`; every `@executa/*` package is released with the same one. */
export function executaVersion(): string {
  const manifest = JSON.parse(readFileSync(join(cliPackageRoot(), "package.json"), "utf8")) as {
    version?: unknown;
  };
  if (typeof manifest.version !== "string") throw new Error(`${CLI_PACKAGE}/package.json has no version`);
  return manifest.version;
}

/** The folder of the plugin project template. */
export function pluginTemplateDir(): string {
  return join(cliPackageRoot(), "templates", "plugin");
}

/**
 * The folder of the documentation site shipped with the CLI (the guides and the API
 * reference of this version): `site/`, copied from the built site when the CLI is built
 * or packed (scripts/copy-site.mjs).
 */
export function docsSiteDir(): string {
  return join(cliPackageRoot(), "site");
}

/** The documentation site on the web: the package's `homepage`. */
export function docsHomepage(): string {
  const manifest = JSON.parse(readFileSync(join(cliPackageRoot(), "package.json"), "utf8")) as {
    homepage?: unknown;
  };
  if (typeof manifest.homepage !== "string") throw new Error(`${CLI_PACKAGE}/package.json has no homepage`);
  return manifest.homepage;
}
