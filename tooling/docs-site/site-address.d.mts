/** The project's address, from the packages' `repository` and `homepage`. */
export interface SiteAddress {
  /** `owner/name` of the GitHub repository. */
  readonly slug: string;
  /** The repository's web address, `https://github.com/owner/name`. */
  readonly repository: string;
  /** The documentation site, `https://owner.github.io/name/`. */
  readonly homepage: string;
  /** The site's base path, `/name/`. */
  readonly base: string;
}
/** The repository's `owner/name` from a package.json `repository` field. */
export function repositorySlug(field: unknown): string;
/** The GitHub Pages address of a repository's project site. */
export function pagesAddress(slug: string): string;
/** The address the packages agree on; throws where one differs. */
export function siteAddress(packages?: string): SiteAddress;
