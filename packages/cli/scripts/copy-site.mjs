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
import { cpSync, existsSync, rmSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const PACKAGE = resolve(import.meta.dirname, "..");
const BUILT = resolve(PACKAGE, "..", "..", "docs", ".vitepress", "dist");
const TARGET = join(PACKAGE, "site");
const required = process.argv.includes("--required");

if (!existsSync(join(BUILT, "index.html")) || !existsSync(join(BUILT, "api", "index.html"))) {
  const where = relative(process.cwd(), BUILT);
  if (required) {
    process.stderr.write(
      `@executa/cli ships the documentation site, and ${where} holds no built site (guides and API reference): run \`pnpm docs:site\` first\n`,
    );
    process.exitCode = 1;
  } else {
    process.stdout.write(
      `no documentation site in ${where} (\`pnpm docs:site\` builds it): \`executa docs\` will point to the web\n`,
    );
  }
} else {
  rmSync(TARGET, { recursive: true, force: true });
  cpSync(BUILT, TARGET, { recursive: true });
  process.stdout.write(`documentation site copied into ${relative(process.cwd(), TARGET)}\n`);
}
