/** @typedef {import("./publint-check.mjs").Finding} Finding */

const RUNTIME_DEPENDENCY_FIELDS = ["dependencies", "optionalDependencies", "peerDependencies"];

/**
 * A `sideEffects` entry as a matcher over packed paths, with bundlers' semantics: `*` within
 * a path segment, `**` across segments, and an entry without a slash matching a file name
 * anywhere.
 *
 * @param {string} pattern
 * @returns {(path: string) => boolean}
 */
function sideEffectsMatcher(pattern) {
  const normalized = pattern.replace(/^\.\//, "");
  const source = normalized
    .split("**")
    .map((part) => part.replace(/[.+^${}()|[\]\\?]/g, "\\$&").replace(/\*/g, "[^/]*"))
    .join(".*");
  const regex = new RegExp(`^${normalized.includes("/") ? "" : "(?:.*/)?"}${source}$`);
  return (path) => regex.test(path);
}

/** @param {Record<string, any>} pkg @param {string[]} files @returns {string[]} */
function sideEffectsErrors(pkg, files) {
  if (!Array.isArray(pkg.sideEffects)) return [];
  return pkg.sideEffects
    .filter((/** @type {string} */ pattern) => !files.some(sideEffectsMatcher(pattern)))
    .map(
      (/** @type {string} */ pattern) => `sideEffects lists "${pattern}", which matches no published file`,
    );
}

/**
 * `files` entries that publish nothing: a folder or file the build should have made (the
 * CLI's `site`, the built documentation site) is missing from the tarball.
 *
 * @param {Record<string, any>} pkg @param {string[]} files @returns {string[]}
 */
function emptyFilesEntries(pkg, files) {
  if (!Array.isArray(pkg.files)) return [];
  return pkg.files
    .filter((/** @type {string} */ entry) => !entry.startsWith("!") && !/[*?[{]/.test(entry))
    .map((/** @type {string} */ entry) => entry.replace(/^\.\//, "").replace(/\/+$/, ""))
    .filter((entry) => !files.some((file) => file === entry || file.startsWith(`${entry}/`)))
    .map((entry) => `files lists "${entry}", which is not in the package: build it before packing`);
}

/** @param {Record<string, any>} pkg @returns {string[]} */
function unpublishableSpecifiers(pkg) {
  const errors = [];
  for (const field of RUNTIME_DEPENDENCY_FIELDS) {
    for (const [name, range] of Object.entries(pkg[field] ?? {})) {
      if (/^(workspace|link|file):/.test(String(range))) {
        errors.push(
          `${field}["${name}"] is "${range}" in the packed package.json: not installable from a registry`,
        );
      }
    }
  }
  return errors;
}

/** @param {Record<string, any>} pkg @param {string[]} files @returns {string[]} */
function publishingErrors(pkg, files) {
  const errors = [];
  if (pkg.private) errors.push('"private": true: the package cannot be published');
  if (!pkg.engines?.node)
    errors.push("engines.node is missing: say which Node.js versions the package supports");
  if (pkg.name?.startsWith("@") && pkg.publishConfig?.access !== "public") {
    errors.push('a scoped package needs publishConfig.access "public", or npm publishes it as restricted');
  }
  if (!files.some((file) => /^licen[cs]e(\.|$)/i.test(file))) errors.push("no LICENSE file is published");
  if (!files.some((file) => /^readme(\.|$)/i.test(file))) errors.push("no README file is published");
  return errors;
}

/**
 * Checks of the packed package.json that publint and attw do not make: fields a registry
 * release needs, installable dependency specifiers, and `sideEffects` and `files` entries
 * that name published files.
 *
 * @param {Record<string, any>} pkg The package.json inside the tarball.
 * @param {string[]} files The paths inside the tarball.
 * @returns {Finding[]}
 */
export function checkManifest(pkg, files) {
  return [
    ...publishingErrors(pkg, files),
    ...unpublishableSpecifiers(pkg),
    ...sideEffectsErrors(pkg, files),
    ...emptyFilesEntries(pkg, files),
  ].map((message) => ({ tool: "manifest", level: "error", message }));
}
