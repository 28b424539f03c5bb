import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { linkTargets } from "../../package-lint/lib/readme-check.mjs";
import { pagesAddress, repositorySlug, siteAddress } from "../site-address.mjs";

const packages = fileURLToPath(new URL("../../../packages/", import.meta.url));
const docs = fileURLToPath(new URL("../../../docs/", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "site-address-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A packages folder whose packages carry the given `repository` and `homepage`. */
function packagesWith(...settings: { repository: unknown; homepage: unknown }[]): string {
  const dir = mkdtempSync(join(scratch, "packages-"));
  settings.forEach((setting, index) => {
    mkdirSync(join(dir, `p${index}`));
    writeFileSync(join(dir, `p${index}`, "package.json"), JSON.stringify({ name: `p${index}`, ...setting }));
  });
  return dir;
}

describe("the project's address", () => {
  it("is one setting: every package names the same repository, and its homepage is that repository's site", () => {
    const address = siteAddress();
    for (const name of readdirSync(packages)) {
      const pkg = JSON.parse(readFileSync(join(packages, name, "package.json"), "utf8"));
      expect(repositorySlug(pkg.repository), name).toBe(address.slug);
      expect(pkg.repository.directory, name).toBe(`packages/${name}`);
      expect(pkg.homepage, name).toBe(address.homepage);
    }
    expect(address.base).toBe(`/${address.slug.split("/")[1]}/`);
  });

  it("fails on a package that names another repository or another homepage", () => {
    const good = { repository: "github:acme/tools", homepage: "https://acme.github.io/tools/" };
    expect(siteAddress(packagesWith(good, good)).homepage).toBe("https://acme.github.io/tools/");
    expect(() =>
      siteAddress(
        packagesWith(good, { ...good, repository: { url: "git+https://github.com/acme/other.git" } }),
      ),
    ).toThrow(/repository names acme\/other/);
    expect(() => siteAddress(packagesWith(good, { ...good, homepage: "https://acme.dev/" }))).toThrow(
      /homepage is "https:\/\/acme\.dev\/", the repository's site is https:\/\/acme\.github\.io\/tools\//,
    );
    expect(() => repositorySlug("https://gitlab.com/a/b")).toThrow(/not a GitHub repository/);
    expect(pagesAddress("Acme/Tools")).toBe("https://acme.github.io/Tools/");
  });

  it("is where every package README's site links point, each to a guide that exists", () => {
    const { homepage } = siteAddress();
    for (const name of readdirSync(packages)) {
      const readme = readFileSync(join(packages, name, "README.md"), "utf8");
      const site = linkTargets(readme).filter((target) => target.includes(".github.io"));
      expect(site.length, name).toBeGreaterThan(0);
      for (const target of site) {
        expect(target, name).toMatch(new RegExp(`^${homepage.replace(/[.]/g, "\\.")}`));
        const page = new URL(target).pathname.slice(new URL(homepage).pathname.length);
        if (page.startsWith("guide/")) {
          expect(readdirSync(join(docs, "guide")), `${name}: ${target}`).toContain(
            page.slice("guide/".length).replace(/\.html$/, ".md"),
          );
        }
      }
    }
  });
});
