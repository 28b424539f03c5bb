/**
 * The project's address, set in one place: `repository` and `homepage` of the packages'
 * package.json, the same in every package. The homepage is the documentation site on
 * GitHub Pages, so it follows from the repository; the site's base path, the READMEs' links
 * and the deployment all derive from it.
 *
 *   node tooling/docs-site/site-address.mjs                 prints the address as JSON
 *   node tooling/docs-site/site-address.mjs --expect URL     exits 1 unless the homepage is URL
 *                                                           (the deployment's, from GitHub)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGES = resolve(import.meta.dirname, "..", "..", "packages");

/**
 * @typedef {object} SiteAddress
 * @property {string} slug `owner/name` of the GitHub repository.
 * @property {string} repository The repository's web address, `https://github.com/owner/name`.
 * @property {string} homepage The documentation site, `https://owner.github.io/name/`.
 * @property {string} base The site's base path, `/name/`.
 */

/**
 * The repository's `owner/name` from a package.json `repository` field.
 *
 * @param {unknown} field
 * @returns {string}
 */
export function repositorySlug(field) {
  const url = typeof field === "object" && field !== null && "url" in field ? field.url : field;
  const text = String(url ?? "");
  const match =
    /github\.com[/:]([^/]+)\/([^/#]+?)(?:\.git)?\/?$/.exec(text) ??
    /^(?:github:)?([\w.-]+)\/([\w.-]+)$/.exec(text);
  if (!match) throw new Error(`repository ${JSON.stringify(field)} is not a GitHub repository`);
  return `${match[1]}/${match[2]}`;
}

/**
 * The GitHub Pages address of a repository's project site.
 *
 * @param {string} slug `owner/name`
 * @returns {string}
 */
export function pagesAddress(slug) {
  const [owner, name] = slug.split("/");
  return `https://${owner.toLowerCase()}.github.io/${name}/`;
}

/**
 * Every publishable package's `repository` and `homepage`, with its folder.
 *
 * @param {string} packages The folder holding the packages.
 * @returns {{ dir: string, repository: unknown, homepage: unknown }[]}
 */
export function packageSettings(packages) {
  return readdirSync(packages, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const pkg = JSON.parse(readFileSync(join(packages, entry.name, "package.json"), "utf8"));
      return { dir: `packages/${entry.name}`, private: pkg.private, ...pkg };
    })
    .filter((pkg) => !pkg.private)
    .map(({ dir, repository, homepage }) => ({ dir, repository, homepage }));
}

/**
 * The address the packages agree on; throws, naming the package, where one differs or its
 * homepage is not the repository's Pages site.
 *
 * @param {string} [packages] The folder holding the packages (the workspace's by default).
 * @returns {SiteAddress}
 */
export function siteAddress(packages = PACKAGES) {
  const settings = packageSettings(packages);
  const first = settings[0];
  if (!first) throw new Error(`no package under ${packages}`);
  const slug = repositorySlug(first.repository);
  const homepage = pagesAddress(slug);
  for (const { dir, repository, homepage: stated } of settings) {
    if (repositorySlug(repository) !== slug) {
      throw new Error(
        `${dir}/package.json: repository names ${repositorySlug(repository)}, ${first.dir} ${slug}`,
      );
    }
    if (stated !== homepage) {
      throw new Error(
        `${dir}/package.json: homepage is ${JSON.stringify(stated)}, the repository's site is ${homepage}`,
      );
    }
  }
  return { slug, repository: `https://github.com/${slug}`, homepage, base: new URL(homepage).pathname };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const address = siteAddress();
  const expectAt = process.argv.indexOf("--expect");
  if (expectAt < 0) {
    process.stdout.write(`${JSON.stringify(address, null, 2)}\n`);
  } else {
    const expected = `${String(process.argv[expectAt + 1] ?? "").replace(/\/+$/, "")}/`;
    if (expected.toLowerCase() !== address.homepage.toLowerCase()) {
      process.stderr.write(
        `the site is deployed to ${expected}, but the packages' homepage is ${address.homepage}: set "repository" and "homepage" in packages/*/package.json to this repository\n`,
      );
      process.exitCode = 1;
    }
  }
}
