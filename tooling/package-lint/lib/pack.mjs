import { spawnSync } from "node:child_process";

/**
 * @typedef {object} PackResult
 * @property {string} name The package name.
 * @property {string} version The package version.
 * @property {string} tarball Absolute path of the .tgz written.
 * @property {string[]} files Paths inside the tarball, relative to its `package/` folder.
 */

/**
 * What pnpm said about a failed pack: the message of its JSON error, else its raw output.
 *
 * @param {{ stdout: string, stderr: string }} result
 */
function failureMessage(result) {
  const output = (result.stderr || result.stdout).trim();
  try {
    return JSON.parse(output.slice(output.indexOf("{"))).error?.message ?? output;
  } catch {
    return output;
  }
}

/**
 * Packs the package in `pkgDir` with `pnpm pack` into `destination`: what `pnpm publish`
 * would upload, `workspace:` specifiers already rewritten to real versions.
 *
 * @param {string} pkgDir
 * @param {string} destination
 * @returns {PackResult}
 */
export function packPackage(pkgDir, destination) {
  const result = spawnSync("pnpm", ["pack", "--pack-destination", destination, "--json"], {
    cwd: pkgDir,
    encoding: "utf8",
    shell: process.platform === "win32",
  });
  if (result.error) throw new Error(`could not run pnpm pack in ${pkgDir}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`pnpm pack failed in ${pkgDir} (exit ${result.status}): ${failureMessage(result)}`);
  }
  // pnpm may print notices before the JSON document.
  const json = result.stdout.slice(result.stdout.indexOf("{"));
  const packed = JSON.parse(json);
  return {
    name: packed.name,
    version: packed.version,
    tarball: packed.filename,
    files: packed.files.map((/** @type {{ path: string }} */ file) => file.path),
  };
}
