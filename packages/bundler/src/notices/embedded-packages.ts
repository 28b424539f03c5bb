import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { ExecutaBuildError } from "../errors/build-error.js";

/** A package whose code the bundle embeds, as its own `package.json` declares it. */
export interface EmbeddedPackage {
  name: string;
  version: string;
  /** The SPDX licence expression of `license` (or the legacy `licenses` list, joined with OR). */
  license: string;
  /** The package's own licence and notice files (LICENSE, LICENCE, COPYING, NOTICE), by file name. */
  licenseFiles: { name: string; text: string }[];
  /** Where the package lives. */
  dir: string;
  /** The embedded files, relative to `dir`, `/`-separated and sorted. */
  files: string[];
  /** SHA-256 over the embedded files in that order (each its path, a NUL, its bytes, a NUL), hex. */
  sha256: string;
}

/** An esbuild metafile: for each output, the inputs it holds and how many of their bytes. */
export interface BundleMetafile {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}

/**
 * The input files (absolute) whose bytes are in the output `bundle` of an esbuild metafile
 * (paths in it are relative to `workingDir`); a file tree-shaken to nothing is left out.
 */
export function bundleInputs(metafile: BundleMetafile, bundle: string, workingDir: string): string[] {
  const target = resolve(bundle);
  const output = Object.entries(metafile.outputs).find(([path]) => resolve(workingDir, path) === target)?.[1];
  if (!output) return [];
  return Object.entries(output.inputs)
    .filter(([path, input]) => input.bytesInOutput > 0 && !path.includes(":"))
    .map(([path]) => resolve(workingDir, path));
}

/**
 * The packages the bundle embeds, from its input files: each file belongs to the nearest
 * `package.json` above it that names a package; the project's own files (under
 * `projectDir`'s package) are left out. Sorted by name, then version.
 *
 * Throws `UNLICENSED_PACKAGE` naming every embedded package that declares no licence: a
 * binary must be able to say under what terms it ships the code it carries.
 */
export function embeddedPackages(inputs: readonly string[], projectDir: string): EmbeddedPackage[] {
  const own = packageDirOf(resolve(projectDir, "package.json"), new Map());
  const byDir = new Map<string, string[]>();
  const cache = new Map<string, string | undefined>();
  for (const input of inputs) {
    const dir = packageDirOf(input, cache);
    if (!dir || dir === own) continue;
    byDir.set(dir, [...(byDir.get(dir) ?? []), input]);
  }
  const packages = [...byDir].map(([dir, files]) => describePackage(dir, files));
  const unlicensed = packages.filter((found) => found.license === "");
  if (unlicensed.length > 0) {
    const names = unlicensed.map((found) => `${found.name}@${found.version} (${found.dir})`).join(", ");
    throw new ExecutaBuildError(
      "UNLICENSED_PACKAGE",
      `the bundle embeds ${unlicensed.length === 1 ? "a package" : "packages"} with no licence in package.json: ${names}. ` +
        "The binary cannot say under what terms it ships their code: ask their authors for a licence, or replace them",
      { step: "notices" },
    );
  }
  return packages.sort((a, b) =>
    a.name === b.name ? compare(a.version, b.version) : compare(a.name, b.name),
  );
}

/** The folder of the nearest `package.json` above `file` that has a `name` (a bare `{"type":"module"}` does not count). */
function packageDirOf(file: string, cache: Map<string, string | undefined>): string | undefined {
  const seen: string[] = [];
  let dir = dirname(file);
  for (;;) {
    if (cache.has(dir)) return remember(cache, seen, cache.get(dir));
    seen.push(dir);
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && typeof readJson(manifest).name === "string")
      return remember(cache, seen, dir);
    const parent = dirname(dir);
    if (parent === dir) return remember(cache, seen, undefined);
    dir = parent;
  }
}

function remember(
  cache: Map<string, string | undefined>,
  dirs: readonly string[],
  found: string | undefined,
): string | undefined {
  for (const dir of dirs) cache.set(dir, found);
  return found;
}

function describePackage(dir: string, inputs: readonly string[]): EmbeddedPackage {
  const manifest = readJson(join(dir, "package.json"));
  const files = inputs.map((input) => relative(dir, input).split(sep).join("/")).sort(compare);
  const hash = createHash("sha256");
  for (const file of files)
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(join(dir, file)))
      .update("\0");
  return {
    name: String(manifest.name),
    version: typeof manifest.version === "string" ? manifest.version : "0.0.0",
    license: declaredLicense(manifest),
    licenseFiles: licenseFilesIn(dir),
    dir,
    files,
    sha256: hash.digest("hex"),
  };
}

/** `license` as written (an SPDX expression), `license.type`, or the legacy `licenses` joined with OR; "" for none. */
function declaredLicense(manifest: Record<string, unknown>): string {
  const typeOf = (value: unknown): string =>
    typeof value === "string"
      ? value
      : typeof (value as { type?: unknown })?.type === "string"
        ? (value as { type: string }).type
        : "";
  const single = typeOf(manifest.license).trim();
  if (single !== "" && single.toUpperCase() !== "UNLICENSED") return single;
  if (Array.isArray(manifest.licenses)) {
    const listed = manifest.licenses.map(typeOf).filter((name) => name !== "");
    if (listed.length > 0) return listed.length === 1 ? (listed[0] as string) : `(${listed.join(" OR ")})`;
  }
  return "";
}

const LICENSE_FILE = /^(licen[cs]e|copying|notice)([.-].*)?$/i;

function licenseFilesIn(dir: string): { name: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && LICENSE_FILE.test(entry.name))
    .map((entry) => ({ name: entry.name, text: readFileSync(join(dir, entry.name), "utf8") }))
    .sort((a, b) => compare(a.name, b.name));
}

function readJson(path: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
