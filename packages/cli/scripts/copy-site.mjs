/**
 * Copies the built documentation site (docs/.vitepress/dist, written by `pnpm docs:site`)
 * into this package's site/, which `executa docs` serves and the package publishes.
 *
 *   node scripts/copy-site.mjs             after the build: copies the site when it is built
 *   node scripts/copy-site.mjs --required  before packing: fails when it is not
 *
 * The site is built for the root of a server (not with the Pages base path), so that it is
 * served as is on 127.0.0.1.
 */
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const PACKAGE = resolve(import.meta.dirname, "..");
const BUILT = resolve(PACKAGE, "..", "..", "docs", ".vitepress", "dist");
const TARGET = join(PACKAGE, "site");
const required = process.argv.includes("--required");
const where = relative(process.cwd(), BUILT);

/** Why the built site cannot be shipped, or undefined when it can. */
function unshippable() {
  if (!existsSync(join(BUILT, "index.html")) || !existsSync(join(BUILT, "api", "index.html"))) {
    return `${where} holds no built site (guides and API reference): run \`pnpm docs:site\``;
  }
  const { homepage } = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8"));
  const pagesBase = new URL(homepage).pathname;
  const index = readFileSync(join(BUILT, "index.html"), "utf8");
  if (pagesBase !== "/" && index.includes(`"${pagesBase}assets/`)) {
    return `${where} was built for GitHub Pages (under ${pagesBase}): run \`pnpm docs:site\` without EXECUTA_DOCS_FOR_PAGES`;
  }
  return undefined;
}

const problem = unshippable();
if (problem === undefined) {
  rmSync(TARGET, { recursive: true, force: true });
  cpSync(BUILT, TARGET, { recursive: true });
  process.stdout.write(`documentation site copied into ${relative(process.cwd(), TARGET)}\n`);
} else if (required) {
  process.stderr.write(`@executa/cli ships the documentation site, and ${problem}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(
    `not copying the documentation site: ${problem} (\`executa docs\` points to the web)\n`,
  );
}
