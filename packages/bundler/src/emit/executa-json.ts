import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { Manifest } from "@executa/core";
import { isObject } from "@executa/core/internal";
import { ExecutaBuildError, type ExecutaJsonConflict } from "../errors/build-error.js";
import type { KnownPlatform } from "../platform/platforms.js";

/** File name of the distribution descriptor, in the project folder and in the output folder. */
export const EXECUTA_JSON = "executa.json";

/** One built archive of one platform. */
export interface PlatformArchive {
  platform: KnownPlatform;
  /** Base name of the archive, e.g. `weather-linux-x86_64.tar.gz`. */
  file: string;
  /** Hex sha256 of the archive. */
  sha256: string;
  /** Size of the archive in bytes. */
  size: number;
  format: "tar.gz" | "zip";
  /** Path of the executable inside the archive: `bin/weather` or `bin/weather.exe`. */
  entrypoint: string;
}

/** What {@link executaJson} builds the file from. */
export interface ExecutaJsonInput {
  /** The plugin's manifest, as it answers `describe`. */
  manifest: Manifest;
  /** File name of the executable, without `.exe`. */
  executableName: string;
  /** One per built platform; empty when only the bundle was built. */
  archives: PlatformArchive[];
  /**
   * Download URL of an archive, with the placeholders `{name}`, `{version}`, `{asset}`
   * and `{platform}`, e.g.
   * `https://github.com/OWNER/REPO/releases/download/{name}-v{version}/{asset}`.
   */
  releaseUrl?: string;
  /** Absolute path of the archive of the machine that built it, for the `local` profile (that machine only). */
  localArchive?: string;
  /** The parsed `executa.json` the author wrote in the project, if any. */
  authored?: unknown;
  /** Path of that file, for messages. */
  authoredPath?: string;
}

/**
 * `executa.json` as the agent's tooling reads it: publish metadata read by
 * `anna-app apps publish`, dev fields read by `anna-app dev`, and the `distribution`
 * block `anna-app executa publish` forwards onto the server's Executa row so the Agent
 * can install the plugin. Fields the author wrote that the build does not know pass
 * through as written.
 */
export interface ExecutaJson {
  /** Handle of the Executa in the registry (the manifest's `name`). */
  slug: string;
  /** Name shown to people (the manifest's `display_name`, else its `name`). */
  name: string;
  version: string;
  /** `tool` for a plugin that runs; the registry also knows `skill` (declarative, nothing to run). */
  executa_type: "tool" | (string & {});
  description: string;
  /** Dev field for `anna-app dev`: the server-minted id, also the installed command's name. Author-written only. */
  tool_id?: string;
  /** Dev field for `anna-app dev`: how to run the project (`python`, `node`, `go`, `binary`). Author-written only. */
  type?: string;
  /** Dev field for `anna-app dev`: whether it starts this Executa. Author-written only. */
  enabled?: boolean;
  /** Free text for people; no tool reads it. Author-written only. */
  _comment?: string;
  distribution: Distribution;
  [field: string]: unknown;
}

/**
 * How the Agent installs the Executa: named profiles side by side, and the one
 * `anna-app apps/executa publish` forwards to the server.
 */
export interface Distribution {
  /** Name of the profile that is published: `binary` once an archive has a URL, else `local`. */
  active: "binary" | "local" | (string & {});
  profiles: DistributionProfiles;
}

/** The profiles of {@link Distribution}; the author may add others (e.g. `uv`, `npm`). */
export interface DistributionProfiles {
  binary: BinaryProfile;
  local: LocalProfile;
  [profile: string]: unknown;
}

/**
 * The Agent downloads the archive of its platform from `binary_urls`, verifies it,
 * extracts it under `tools/{tool_id}/v{version}/` and links `bin/{executable_name}`.
 */
export interface BinaryProfile {
  type: "binary";
  /** Name of the installed command; the Agent finds the plugin by it. */
  executable_name: string;
  /** The plugin speaks the Executa JSON-RPC protocol on stdio. */
  supports_protocol: true;
  /** Names of the tools the plugin offers, in manifest order. */
  capabilities: string[];
  /** One entry per platform key (`linux-x86_64`, `darwin-arm64`, …). */
  binary_urls: Record<string, BinaryUrl | AuthoredBinaryUrl>;
  [field: string]: unknown;
}

/** Where the Agent downloads one platform's archive, and how it checks and opens it. */
export interface BinaryUrl {
  /** Download URL of the archive; without it the Agent cannot install this platform. */
  url?: string;
  /**
   * Hex sha256 of the archive, checked after download. The registry's mirror pins its
   * own on `anna-app apps cut`; the built one is the same bytes' digest.
   */
  sha256: string;
  /** Size of the archive in bytes, checked with the sha256. */
  size: number;
  /**
   * Path of the executable inside the archive. The archive's `manifest.json`
   * (`runtime.binary.entrypoint`) takes precedence; this is the fallback.
   */
  entrypoint: string;
  format: "tar.gz" | "zip";
  [field: string]: unknown;
}

/**
 * A `binary_urls` entry from the project file for a platform this build did not make,
 * kept as written: a bare URL, or an entry with only some fields.
 */
export type AuthoredBinaryUrl = string | Partial<BinaryUrl>;

/**
 * The Agent installs an archive from its own disk, through the same pipeline as
 * `binary` but without sha256 or size checks: for trying a build before publishing it.
 */
export interface LocalProfile {
  type: "local";
  /** The plugin speaks the Executa JSON-RPC protocol on stdio. */
  supports_protocol: true;
  /** Names of the tools the plugin offers, in manifest order. */
  capabilities: string[];
  /** Name of the installed command (the Agent derives it from the archive name otherwise). */
  executable_name: string;
  /**
   * The archive to install (the registry form's "Local Archive Path"; for `local` the
   * server row keeps it in `package_name`). Written relative to the folder holding
   * this file; the Agent wants an absolute path on its own machine.
   */
  package_name?: string;
  [field: string]: unknown;
}

/**
 * The project's `executa.json` states a fact the build measures (an archive's sha256,
 * size, entrypoint or format; a profile's capabilities, executable name or protocol
 * support) with another value, or a field of another JSON type than the build writes.
 * Keeping it would ship a file that describes other archives than the ones built.
 */
function conflictError(file: string, conflicts: ExecutaJsonConflict[]): ExecutaBuildError {
  return new ExecutaBuildError("EXECUTA_JSON_CONFLICT", conflictMessage(file, conflicts), {
    file,
    conflicts,
  });
}

const URL_PLACEHOLDERS = ["name", "version", "asset", "platform"] as const;
type UrlPlaceholder = (typeof URL_PLACEHOLDERS)[number];
const PLACEHOLDER = /\{([^{}]*)\}/g;

/** Fields of an archive the build measured: an authored value must match. */
const MEASURED_ARCHIVE_FIELDS = ["sha256", "size", "entrypoint", "format"] as const;
/** Fields of a profile the build derives from the plugin: an authored value must match. */
const MEASURED_PROFILE_FIELDS = ["capabilities", "executable_name", "supports_protocol"] as const;

type JsonObject = { [key: string]: unknown };

/**
 * Builds `executa.json` for a build: identity from the manifest, a `binary` profile with
 * one `binary_urls` entry per archive, a `local` profile, and the active one. The
 * author's project file, if any, is merged in: every field the author wrote is kept as
 * written and comes first, the built ones fill in the rest. `notes` says what the
 * author may want to act on.
 *
 * Throws an `ExecutaBuildError`: `EXECUTA_JSON_CONFLICT` (with `details.conflicts`) when
 * the project file contradicts what the build measured, `EXECUTA_JSON_INVALID` for an
 * unknown placeholder in `releaseUrl` or a project
 * file that is not an object or uses the flat single-profile `distribution`.
 */
export function executaJson(input: ExecutaJsonInput): { json: ExecutaJson; notes: string[] } {
  const file = input.authoredPath ?? `the project's ${EXECUTA_JSON}`;
  if (input.releaseUrl !== undefined) assertKnownPlaceholders(input.releaseUrl);
  const authored = authoredObject(input.authored, file);
  const built = builtExecutaJson(input, authored);
  const conflicts: ExecutaJsonConflict[] = [];
  const json = mergeAuthored(authored, built, [], measuredPaths(input.archives), conflicts) as ExecutaJson;
  if (conflicts.length > 0) throw conflictError(file, conflicts);
  return { json, notes: notesOf(input, authored, json, file) };
}

/**
 * Reads the `executa.json` the author keeps in `projectDir`; `undefined` when there is
 * none. Throws an `EXECUTA_JSON_INVALID` error naming the file when it is not valid JSON or not an object.
 */
export async function readAuthoredExecutaJson(
  projectDir: string,
): Promise<{ path: string; value: unknown } | undefined> {
  const path = join(projectDir, EXECUTA_JSON);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let value: unknown;
  try {
    // Editors on Windows may save a byte order mark, which JSON.parse rejects.
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw invalid(`${path} is not valid JSON: ${(error as Error).message}`, error);
  }
  if (!isObject(value)) throw invalid(`${path} must hold a JSON object, not ${jsonKind(value)}`);
  return { path, value };
}

function builtExecutaJson(input: ExecutaJsonInput, authored: JsonObject | undefined): ExecutaJson {
  const { manifest, executableName, archives } = input;
  const capabilities = manifest.tools.map((tool) => tool.name);
  const binaryUrls: Record<string, BinaryUrl> = {};
  for (const archive of archives) binaryUrls[archive.platform] = binaryUrlOf(archive, input);
  const hasUrl = archives.some(
    (archive) => binaryUrls[archive.platform]?.url !== undefined || authoredUrl(authored, archive.platform),
  );
  const local: LocalProfile = {
    type: "local",
    supports_protocol: true,
    capabilities,
    executable_name: executableName,
  };
  if (input.localArchive !== undefined) local.package_name = input.localArchive;
  return {
    slug: manifest.name,
    name: manifest.display_name ?? manifest.name,
    version: manifest.version,
    executa_type: "tool",
    description: manifest.description,
    distribution: {
      active: hasUrl ? "binary" : "local",
      profiles: {
        local,
        binary: {
          type: "binary",
          executable_name: executableName,
          supports_protocol: true,
          capabilities: [...capabilities],
          binary_urls: binaryUrls,
        },
      },
    },
  };
}

function binaryUrlOf(archive: PlatformArchive, input: ExecutaJsonInput): BinaryUrl {
  const entry: BinaryUrl = {
    sha256: archive.sha256,
    size: archive.size,
    entrypoint: archive.entrypoint,
    format: archive.format,
  };
  if (input.releaseUrl === undefined) return entry;
  const url = fillPlaceholders(input.releaseUrl, {
    name: input.manifest.name,
    version: input.manifest.version,
    asset: archive.file,
    platform: archive.platform,
  });
  return { url, ...entry };
}

function assertKnownPlaceholders(template: string): void {
  for (const [, key] of template.matchAll(PLACEHOLDER)) {
    if (!(URL_PLACEHOLDERS as readonly string[]).includes(key!)) {
      const known = URL_PLACEHOLDERS.map((name) => `{${name}}`).join(", ");
      throw invalid(`releaseUrl: unknown placeholder {${key}} in "${template}"; known: ${known}`);
    }
  }
}

function fillPlaceholders(template: string, values: Record<UrlPlaceholder, string>): string {
  return template.replace(PLACEHOLDER, (_, key: UrlPlaceholder) => encodeURIComponent(values[key]));
}

/** Paths whose authored value must equal the built one. */
function measuredPaths(archives: PlatformArchive[]): Set<string> {
  // The version is the manifest's: another one would publish these archives under it.
  const paths = new Set<string>(["version"]);
  for (const profile of ["binary", "local"]) {
    for (const field of MEASURED_PROFILE_FIELDS) paths.add(`distribution.profiles.${profile}.${field}`);
  }
  for (const { platform } of archives) {
    for (const field of MEASURED_ARCHIVE_FIELDS) {
      paths.add(`distribution.profiles.binary.binary_urls.${platform}.${field}`);
    }
  }
  return paths;
}

/**
 * `built` with `authored` laid over it: the author's keys first, in their order, each
 * with the author's value (objects merged key by key), then the keys only the build
 * has. An authored value of another JSON type than the built one, or a measured one
 * that differs, is collected in `conflicts`.
 */
function mergeAuthored(
  authored: unknown,
  built: unknown,
  path: string[],
  measured: Set<string>,
  conflicts: ExecutaJsonConflict[],
): unknown {
  if (authored === undefined) return built;
  if (isBinaryUrlShorthand(authored, built, path)) authored = { url: authored };
  const dotted = path.join(".");
  if (jsonKind(authored) !== jsonKind(built)) {
    conflicts.push({ path: dotted, authored, built });
    return authored;
  }
  if (isObject(authored) && isObject(built)) return mergeObjects(authored, built, path, measured, conflicts);
  if (measured.has(dotted) && !isDeepStrictEqual(authored, built)) {
    conflicts.push({ path: dotted, authored, built });
  }
  return authored;
}

/** Two objects merged key by key: the author's keys first, in their order, then the build's own. */
function mergeObjects(
  authored: JsonObject,
  built: JsonObject,
  path: string[],
  measured: Set<string>,
  conflicts: ExecutaJsonConflict[],
): JsonObject {
  const merged: JsonObject = {};
  for (const [key, value] of Object.entries(authored)) {
    merged[key] = Object.hasOwn(built, key)
      ? mergeAuthored(value, built[key], [...path, key], measured, conflicts)
      : value;
  }
  for (const [key, value] of Object.entries(built)) {
    if (!Object.hasOwn(authored, key)) merged[key] = value;
  }
  return merged;
}

/** The reference accepts a bare URL string as a `binary_urls` entry; it means `{ url }`. */
function isBinaryUrlShorthand(authored: unknown, built: unknown, path: string[]): authored is string {
  return (
    typeof authored === "string" &&
    isObject(built) &&
    path.length === 5 &&
    path.slice(0, 4).join(".") === "distribution.profiles.binary.binary_urls"
  );
}

function authoredObject(authored: unknown, file: string): JsonObject | undefined {
  if (authored === undefined) return undefined;
  if (!isObject(authored)) throw invalid(`${file} must hold a JSON object, not ${jsonKind(authored)}`);
  const distribution = authored.distribution;
  // The flat form (`distribution.type` + siblings) and the profiles the build writes would
  // both be in one block, and which one the tooling publishes is not ours to guess.
  if (
    isObject(distribution) &&
    Object.hasOwn(distribution, "type") &&
    !Object.hasOwn(distribution, "profiles")
  ) {
    throw invalid(
      `${file}: "distribution" uses the flat form (distribution.type = ${JSON.stringify(distribution.type)}); ` +
        "the build writes the profiles form (distribution.active + distribution.profiles.<name>). " +
        "Move those fields under distribution.profiles.<name>, or delete the block and let the build write it",
    );
  }
  return authored;
}

function authoredBinaryUrls(authored: JsonObject | undefined): JsonObject {
  const urls = pathValue(authored, ["distribution", "profiles", "binary", "binary_urls"]);
  return isObject(urls) ? urls : {};
}

function authoredUrl(authored: JsonObject | undefined, platform: string): boolean {
  const entry = authoredBinaryUrls(authored)[platform];
  return typeof entry === "string" || (isObject(entry) && typeof entry.url === "string");
}

function notesOf(
  input: ExecutaJsonInput,
  authored: JsonObject | undefined,
  json: ExecutaJson,
  file: string,
): string[] {
  const notes: string[] = [];
  const urls = json.distribution.profiles.binary.binary_urls;
  const withoutUrl = input.archives
    .map((archive) => archive.platform)
    .filter((platform) => {
      const entry = urls[platform];
      return isObject(entry) && entry.url === undefined;
    });
  if (withoutUrl.length > 0) {
    notes.push(
      `binary_urls of ${withoutUrl.join(", ")} have no url, so the Agent cannot download them: ` +
        "set the releaseUrl option (placeholders {name} {version} {asset} {platform}, e.g. " +
        "https://github.com/OWNER/REPO/releases/download/{name}-v{version}/{asset}) " +
        `or write each url in ${file}`,
    );
  }
  const built = new Set<string>(input.archives.map((archive) => archive.platform));
  const kept = Object.keys(authoredBinaryUrls(authored)).filter((platform) => !built.has(platform));
  if (kept.length > 0) {
    notes.push(
      `binary_urls of ${kept.join(", ")} are kept as written in ${file}; this build did not make them`,
    );
  }
  if (authored?.slug !== undefined && authored.slug !== input.manifest.name) {
    notes.push(
      `slug ${JSON.stringify(authored.slug)} of ${file} is kept, but the plugin's manifest name is ${JSON.stringify(input.manifest.name)}`,
    );
  }
  return notes;
}

function conflictMessage(file: string, conflicts: ExecutaJsonConflict[]): string {
  const lines = conflicts.map(
    ({ path, authored, built }) => `  ${path}: written ${preview(authored)}, built ${preview(built)}`,
  );
  return [
    `${file} contradicts what the build made; shipping it would describe other files than the ones built:`,
    ...lines,
    `Delete these fields from ${file}: the build fills them in.`,
  ].join("\n");
}

function preview(value: unknown): string {
  const json = JSON.stringify(value);
  return json.length > 80 ? `${json.slice(0, 79)}…` : json;
}

function pathValue(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

function jsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** The project's `executa.json` or the release URL cannot be used (`EXECUTA_JSON_INVALID`). */
function invalid(message: string, cause?: unknown): ExecutaBuildError {
  return new ExecutaBuildError("EXECUTA_JSON_INVALID", message, { cause });
}
