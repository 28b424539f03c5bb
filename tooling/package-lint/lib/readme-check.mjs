/** @typedef {import("./publint-check.mjs").Finding} Finding */

// Link targets in Markdown: inline `[text](target)`, reference definitions `[id]: target`,
// and HTML `href`/`src` attributes.
const LINK_TARGETS = [
  /\]\(\s*<?([^)\s>]+)/g,
  /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm,
  /\b(?:href|src)\s*=\s*["']([^"']+)["']/g,
];

/**
 * Every link target in a Markdown text, fenced code left out (a sample's `a[i](x)` is no link).
 *
 * @param {string} markdown
 * @returns {string[]}
 */
export function linkTargets(markdown) {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  return LINK_TARGETS.flatMap((pattern) => [...prose.matchAll(pattern)].map((match) => match[1]));
}

/** Whether a target leaves the README's folder: it has a scheme, or is only an anchor. */
const isAbsolute = (/** @type {string} */ target) =>
  /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#");

/**
 * The README as the registry shows it: it has no relative link (there is no repository
 * around it there), and it links to the package's `homepage`, the documentation site.
 *
 * @param {Record<string, any>} pkg The packed package.json.
 * @param {string} readme The packed README's text.
 * @returns {Finding[]}
 */
export function checkReadme(pkg, readme) {
  const targets = linkTargets(readme);
  const errors = targets
    .filter((target) => !isAbsolute(target))
    .map(
      (target) =>
        `README links to "${target}", a relative path that is dead on the registry: link by absolute URL`,
    );
  if (typeof pkg.homepage !== "string") {
    errors.push("homepage is missing: set it to the documentation site the README links to");
  } else if (!targets.some((target) => target.startsWith(pkg.homepage))) {
    errors.push(`README does not link to the documentation site (homepage ${pkg.homepage})`);
  }
  return errors.map((message) => ({ tool: "readme", level: "error", message }));
}
